import Scanning

print("decode-benchmark: usage: decode-benchmark speed|quality")
