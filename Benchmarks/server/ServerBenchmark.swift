import Foundation

enum ServerBenchmark {
    static func main() async {
        print("server benchmark: not yet written")
    }
}
