#ifndef CDOCUMENT_H
#define CDOCUMENT_H

/* A small drawing API over cairo's PDF surface, pango (text) and libzint (barcode symbols
   drawn as vectors), with plain functions Swift can call: no variadic functions, no macros,
   no GLib types. Lengths are in PDF points (1/72 inch), y grows downwards. */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cdoc_document cdoc_document;

/* Receives the PDF's bytes as cairo writes them; answers 0 when they were taken. */
typedef int (*cdoc_write_fn)(void *context, const unsigned char *data, unsigned int length);

enum cdoc_font { CDOC_FONT_SANS = 0, CDOC_FONT_SANS_BOLD = 1, CDOC_FONT_MONO = 2 };
enum cdoc_align { CDOC_ALIGN_LEFT = 0, CDOC_ALIGN_RIGHT = 1, CDOC_ALIGN_CENTER = 2 };
enum cdoc_metadata {
    CDOC_META_TITLE = 0, CDOC_META_AUTHOR = 1, CDOC_META_SUBJECT = 2, CDOC_META_CREATOR = 3,
    CDOC_META_CREATE_DATE = 4, CDOC_META_MOD_DATE = 5
};
enum cdoc_symbology { CDOC_SYMBOL_QR = 0, CDOC_SYMBOL_DATAMATRIX = 1, CDOC_SYMBOL_CODE128 = 2 };

/* A PDF whose pages are `width` x `height` points. NULL when cairo cannot start one. */
cdoc_document *cdoc_create(cdoc_write_fn write, void *context, double width, double height);
/* Sets one metadata entry (dates as ISO 8601, e.g. 2026-05-12T10:30:00Z). */
void cdoc_set_metadata(cdoc_document *doc, int key, const char *value);
/* The colour of what is drawn next (0...1). */
void cdoc_set_color(cdoc_document *doc, double red, double green, double blue);

/* One line of text on `baseline`, within `max_width` (cut with an ellipsis when longer; no
   limit when max_width <= 0), aligned in [x, x + max_width]. Control characters show as U+FFFD,
   bidi override characters are dropped, and invalid UTF-8 is repaired. Answers the width drawn. */
double cdoc_text(cdoc_document *doc, int font, double size, double x, double baseline, double max_width,
                 int align, const char *utf8, long length);
/* One table row: `count` cells on one baseline, cell i at x[i] within widths[i] (aligned by
   aligns[i], or left when aligns is NULL), each as cdoc_text draws it; NULL or empty cells are
   skipped. Plain ASCII cells are gathered, with the plain text drawn after them up to the next
   other drawing, into one run of glyphs for cairo. */
void cdoc_row(cdoc_document *doc, int font, double size, double baseline, int count, const double *x, const double *widths,
              const int *aligns, const char *const *texts, const long *lengths);
/* Text wrapped into at most `max_lines` lines of `width` from `top` (the last cut with an
   ellipsis), cleaned as cdoc_text cleans it. */
void cdoc_text_box(cdoc_document *doc, int font, double size, double x, double top, double width, int max_lines, int align,
                   const char *utf8, long length);
/* The width `cdoc_text` would draw with no limit. */
double cdoc_text_width(cdoc_document *doc, int font, double size, const char *utf8, long length);

void cdoc_fill_rect(cdoc_document *doc, double x, double y, double width, double height);
void cdoc_stroke_rect(cdoc_document *doc, double x, double y, double width, double height, double line_width);
void cdoc_line(cdoc_document *doc, double x1, double y1, double x2, double y2, double line_width);
/* A ring segment (a donut chart's slice) from angle `from` to `to` (radians, clockwise from 12 o'clock). */
void cdoc_ring_segment(cdoc_document *doc, double cx, double cy, double outer, double inner, double from, double to);

/* Ends the page and starts the next one. */
void cdoc_next_page(cdoc_document *doc);
/* Ends the last page and writes the rest of the file. Answers 0, or cairo's status. */
int cdoc_finish(cdoc_document *doc);
/* The text of a status from cdoc_finish or cdoc_status. */
const char *cdoc_status_text(int status);
/* The document's status now (0 when all is well). */
int cdoc_status(cdoc_document *doc);
void cdoc_destroy(cdoc_document *doc);

/* Encodes `data` (bytes) as a symbol and gives its size in modules (for Code 128: its width
   with no quiet zone, and rows = 1). Answers 0, or non-zero with a message in `error`. */
int cdoc_symbol_measure(int symbology, const char *data, int length, int *columns, int *rows, char *error, int error_size);
/* Draws the symbol with modules of `module` points, its top left at (x, y); Code 128's bars
   are `bar_height` points high. Answers 0, or non-zero with a message in `error`. */
int cdoc_symbol_draw(cdoc_document *doc, int symbology, const char *data, int length, double x, double y, double module,
                     double bar_height, char *error, int error_size);

#ifdef __cplusplus
}
#endif

#endif
