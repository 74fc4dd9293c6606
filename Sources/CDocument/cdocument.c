#include "CDocument.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zint.h>

/* One font at one size. Printable ASCII (the usual asset tag, serial and number) and the middle
   dot are drawn straight from a glyph table with cairo_show_glyphs (the PDF's ToUnicode map,
   made by cairo from the font, gives their text back); everything else goes through a pango
   layout (shaping, bidi, fallback fonts, ellipsis). */
typedef struct {
    int font;
    double size;
    PangoFontDescription *description;
    cairo_scaled_font_t *scaled; /* NULL when the font could not be loaded: pango draws all */
    unsigned long glyph[95];
    double advance[95];
    unsigned long ellipsis_glyph;
    double ellipsis_advance;
    unsigned long middle_dot_glyph;
    double middle_dot_advance;
} cdoc_face;

#define CDOC_FACES 24
#define CDOC_GLYPHS 512
/* Glyphs gathered before one cairo_show_glyphs: a page of table rows is one call, as cairo's
   cost per call (recording, analysis, extents, clip) is then paid once a page, not once a row. */
#define CDOC_RUN_GLYPHS 16384

struct cdoc_document {
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoContext *pango;
    PangoLayout *layout;
    cdoc_write_fn write;
    void *context;
    cdoc_face faces[CDOC_FACES];
    int face_count;
    cairo_glyph_t glyphs[CDOC_RUN_GLYPHS];
    int run;              /* glyphs gathered for one cairo_show_glyphs */
    cdoc_face *run_face;  /* their face */
    char *scratch;
    size_t scratch_size;
};

static void cdoc_flush_run(cdoc_document *doc);

static cairo_status_t cdoc_write(void *closure, const unsigned char *data, unsigned int length) {
    cdoc_document *doc = closure;
    return doc->write(doc->context, data, length) == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

cdoc_document *cdoc_create(cdoc_write_fn write, void *context, double width, double height) {
    cdoc_document *doc = calloc(1, sizeof *doc);
    if (!doc) return NULL;
    doc->write = write;
    doc->context = context;
    doc->surface = cairo_pdf_surface_create_for_stream(cdoc_write, doc, width, height);
    if (cairo_surface_status(doc->surface) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(doc->surface);
        free(doc);
        return NULL;
    }
    cairo_pdf_surface_restrict_to_version(doc->surface, CAIRO_PDF_VERSION_1_5);
    doc->cr = cairo_create(doc->surface);
    doc->pango = pango_cairo_create_context(doc->cr);
    /* 1 pango point = 1 PDF point, and no hinting: the advances are the font's own. */
    pango_cairo_context_set_resolution(doc->pango, 72.0);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(doc->pango, options);
    cairo_font_options_destroy(options);
    doc->layout = pango_layout_new(doc->pango);
    pango_layout_set_single_paragraph_mode(doc->layout, TRUE);
    pango_layout_set_auto_dir(doc->layout, FALSE);
    cairo_set_source_rgb(doc->cr, 0, 0, 0);
    return doc;
}

void cdoc_set_metadata(cdoc_document *doc, int key, const char *value) {
    static const cairo_pdf_metadata_t keys[] = {
        CAIRO_PDF_METADATA_TITLE, CAIRO_PDF_METADATA_AUTHOR, CAIRO_PDF_METADATA_SUBJECT,
        CAIRO_PDF_METADATA_CREATOR, CAIRO_PDF_METADATA_CREATE_DATE, CAIRO_PDF_METADATA_MOD_DATE,
    };
    if (key < 0 || key > CDOC_META_MOD_DATE) return;
    cairo_pdf_surface_set_metadata(doc->surface, keys[key], value);
}

void cdoc_set_color(cdoc_document *doc, double red, double green, double blue) {
    cdoc_flush_run(doc);
    cairo_set_source_rgb(doc->cr, red, green, blue);
}

static cdoc_face *cdoc_face_for(cdoc_document *doc, int font, double size) {
    for (int i = 0; i < doc->face_count; i++) {
        if (doc->faces[i].font == font && doc->faces[i].size == size) return &doc->faces[i];
    }
    int slot = doc->face_count < CDOC_FACES ? doc->face_count++ : CDOC_FACES - 1;
    cdoc_face *face = &doc->faces[slot];
    if (doc->run_face == face) cdoc_flush_run(doc);
    if (face->description) {
        pango_font_description_free(face->description);
        if (face->scaled) cairo_scaled_font_destroy(face->scaled);
    }
    memset(face, 0, sizeof *face);
    face->font = font;
    face->size = size;
    /* DejaVu first (Latin, Greek, Cyrillic, Arabic, Hebrew look as they always did), then Debian's
     * Noto faces for the scripts DejaVu lacks: pango takes each character from the first family
     * that has it, and cairo embeds the subset used. */
    const char *family = font == CDOC_FONT_MONO
        ? "DejaVu Sans Mono, Noto Sans Mono CJK SC, Noto Sans Tamil, Noto Sans Thai, Noto Sans"
        : "DejaVu Sans, Noto Sans CJK SC, Noto Sans Tamil, Noto Sans Thai, Noto Sans";
    face->description = pango_font_description_from_string(family);
    if (font == CDOC_FONT_SANS_BOLD) pango_font_description_set_weight(face->description, PANGO_WEIGHT_BOLD);
    pango_font_description_set_size(face->description, (int)lround(size * PANGO_SCALE));

    PangoFont *loaded = pango_context_load_font(doc->pango, face->description);
    if (!loaded) return face;
    cairo_scaled_font_t *scaled = pango_cairo_font_get_scaled_font(PANGO_CAIRO_FONT(loaded));
    if (scaled && cairo_scaled_font_status(scaled) == CAIRO_STATUS_SUCCESS) {
        face->scaled = cairo_scaled_font_reference(scaled);
        char text[4] = {0};
        for (int c = 32; c < 127; c++) {
            text[0] = (char)c;
            text[1] = 0;
            cairo_glyph_t *glyphs = NULL;
            int count = 0;
            if (cairo_scaled_font_text_to_glyphs(face->scaled, 0, 0, text, 1, &glyphs, &count, NULL, NULL, NULL) !=
                    CAIRO_STATUS_SUCCESS ||
                count != 1) {
                cairo_glyph_free(glyphs);
                cairo_scaled_font_destroy(face->scaled);
                face->scaled = NULL;
                break;
            }
            cairo_text_extents_t extents;
            cairo_scaled_font_glyph_extents(face->scaled, glyphs, 1, &extents);
            face->glyph[c - 32] = glyphs[0].index;
            face->advance[c - 32] = extents.x_advance;
            cairo_glyph_free(glyphs);
        }
        if (face->scaled) {
            cairo_glyph_t *glyphs = NULL;
            int count = 0;
            if (cairo_scaled_font_text_to_glyphs(face->scaled, 0, 0, "\xE2\x80\xA6", 3, &glyphs, &count, NULL, NULL, NULL) ==
                    CAIRO_STATUS_SUCCESS &&
                count == 1) {
                cairo_text_extents_t extents;
                cairo_scaled_font_glyph_extents(face->scaled, glyphs, 1, &extents);
                face->ellipsis_glyph = glyphs[0].index;
                face->ellipsis_advance = extents.x_advance;
            } else {
                cairo_scaled_font_destroy(face->scaled);
                face->scaled = NULL;
            }
            cairo_glyph_free(glyphs);
        }
        if (face->scaled) {
            cairo_glyph_t *glyphs = NULL;
            int count = 0;
            if (cairo_scaled_font_text_to_glyphs(face->scaled, 0, 0, "\xC2\xB7", 2, &glyphs, &count, NULL, NULL, NULL) ==
                    CAIRO_STATUS_SUCCESS &&
                count == 1 && glyphs[0].index != 0) {
                cairo_text_extents_t extents;
                cairo_scaled_font_glyph_extents(face->scaled, glyphs, 1, &extents);
                face->middle_dot_glyph = glyphs[0].index;
                face->middle_dot_advance = extents.x_advance;
            }
            cairo_glyph_free(glyphs);
        }
    }
    g_object_unref(loaded);
    return face;
}

/* Whether the glyph table has every character of the text: printable ASCII and U+00B7. */
static int cdoc_plain(const cdoc_face *face, const char *utf8, long length) {
    if (length > CDOC_GLYPHS - 1) return 0;
    for (long i = 0; i < length; i++) {
        unsigned char c = (unsigned char)utf8[i];
        if (c >= 32 && c <= 126) continue;
        if (c == 0xC2 && i + 1 < length && (unsigned char)utf8[i + 1] == 0xB7 && face->middle_dot_glyph) {
            i++;
            continue;
        }
        return 0;
    }
    return 1;
}

static double cdoc_aligned_x(double x, double max_width, double width, int align) {
    if (max_width <= 0) return align == CDOC_ALIGN_RIGHT ? x - width : align == CDOC_ALIGN_CENTER ? x - width / 2 : x;
    if (align == CDOC_ALIGN_RIGHT) return x + max_width - width;
    if (align == CDOC_ALIGN_CENTER) return x + (max_width - width) / 2;
    return x;
}

/* The glyph and advance of the character at utf8[*i] (checked by cdoc_plain); moves *i past it. */
static inline unsigned long cdoc_plain_glyph(const cdoc_face *face, const char *utf8, long *i, double *advance) {
    unsigned char c = (unsigned char)utf8[*i];
    if (c == 0xC2) {
        *i += 2;
        *advance = face->middle_dot_advance;
        return face->middle_dot_glyph;
    }
    *i += 1;
    *advance = face->advance[c - 32];
    return face->glyph[c - 32];
}

static void cdoc_flush_run(cdoc_document *doc) {
    if (doc->run == 0) return;
    cairo_set_scaled_font(doc->cr, doc->run_face->scaled);
    cairo_show_glyphs(doc->cr, doc->glyphs, doc->run);
    doc->run = 0;
    doc->run_face = NULL;
}

/* Plain text through the glyph table: gathers the glyphs into the pending run (drawn by
   cdoc_flush_run, before anything else is drawn) and answers the width. */
static double cdoc_plain_text(cdoc_document *doc, cdoc_face *face, double x, double baseline, double max_width, int align,
                              const char *utf8, long length, int draw) {
    double width = 0, advance;
    for (long i = 0; i < length;) {
        cdoc_plain_glyph(face, utf8, &i, &advance);
        width += advance;
    }
    long end = length;
    int ellipsis = 0;
    if (max_width > 0 && width > max_width) {
        ellipsis = 1;
        width = face->ellipsis_advance;
        end = 0;
        for (long i = 0; i < length;) {
            cdoc_plain_glyph(face, utf8, &i, &advance);
            if (width + advance > max_width) break;
            width += advance;
            end = i;
        }
    }
    if (!draw) return width;
    if (doc->run_face != face || doc->run + length + 1 > CDOC_RUN_GLYPHS) cdoc_flush_run(doc);
    doc->run_face = face;
    double pen = cdoc_aligned_x(x, max_width, width, align);
    cairo_glyph_t *glyph = doc->glyphs + doc->run;
    for (long i = 0; i < end;) {
        glyph->index = cdoc_plain_glyph(face, utf8, &i, &advance);
        glyph->x = pen;
        glyph->y = baseline;
        glyph++;
        pen += advance;
    }
    if (ellipsis) {
        glyph->index = face->ellipsis_glyph;
        glyph->x = pen;
        glyph->y = baseline;
        glyph++;
    }
    doc->run = (int)(glyph - doc->glyphs);
    return width;
}

/* The text as pango should see it: control characters as U+FFFD, bidi overrides and isolates
   dropped, valid UTF-8. The answer is doc->scratch (NUL-terminated). */
static const char *cdoc_clean(cdoc_document *doc, const char *utf8, long length) {
    size_t need = (size_t)length * 3 + 1;
    if (need > doc->scratch_size) {
        free(doc->scratch);
        doc->scratch = malloc(need);
        doc->scratch_size = doc->scratch ? need : 0;
        if (!doc->scratch) return "";
    }
    char *out = doc->scratch;
    for (long i = 0; i < length; i++) {
        unsigned char c = (unsigned char)utf8[i];
        if (c < 32 || c == 127) {
            memcpy(out, "\xEF\xBF\xBD", 3);
            out += 3;
        } else if (c == 0xC2 && i + 1 < length && (unsigned char)utf8[i + 1] >= 0x80 && (unsigned char)utf8[i + 1] <= 0x9F) {
            memcpy(out, "\xEF\xBF\xBD", 3);
            out += 3;
            i++;
        } else if (c == 0xE2 && i + 2 < length &&
                   (((unsigned char)utf8[i + 1] == 0x80 && (unsigned char)utf8[i + 2] >= 0xAA && (unsigned char)utf8[i + 2] <= 0xAE) ||
                    ((unsigned char)utf8[i + 1] == 0x81 && (unsigned char)utf8[i + 2] >= 0xA6 && (unsigned char)utf8[i + 2] <= 0xA9))) {
            i += 2;
        } else {
            *out++ = (char)c;
        }
    }
    *out = 0;
    if (!g_utf8_validate(doc->scratch, -1, NULL)) {
        gchar *valid = g_utf8_make_valid(doc->scratch, -1);
        size_t size = strlen(valid) + 1;
        if (size > doc->scratch_size) {
            free(doc->scratch);
            doc->scratch = malloc(size);
            doc->scratch_size = doc->scratch ? size : 0;
        }
        if (doc->scratch) memcpy(doc->scratch, valid, size);
        g_free(valid);
        if (!doc->scratch) return "";
    }
    return doc->scratch;
}

static double cdoc_pango_text(cdoc_document *doc, cdoc_face *face, double x, double baseline, double max_width, int align,
                              const char *utf8, long length, int draw) {
    PangoLayout *layout = doc->layout;
    pango_layout_set_font_description(layout, face->description);
    pango_layout_set_text(layout, cdoc_clean(doc, utf8, length), -1);
    if (max_width > 0) {
        pango_layout_set_width(layout, (int)(max_width * PANGO_SCALE));
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
    } else {
        pango_layout_set_width(layout, -1);
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE);
    }
    PangoRectangle logical;
    pango_layout_get_extents(layout, NULL, &logical);
    double width = (double)logical.width / PANGO_SCALE;
    if (max_width > 0 && width > max_width) width = max_width;
    if (!draw) return width;
    cdoc_flush_run(doc);
    double left = cdoc_aligned_x(x, max_width, width, align) - (double)logical.x / PANGO_SCALE;
    double top = baseline - (double)pango_layout_get_baseline(layout) / PANGO_SCALE;
    cairo_save(doc->cr);
    if (max_width > 0) {
        /* Fallback glyphs (emoji and the like) may be wider than the font said: keep them in the cell. */
        cairo_rectangle(doc->cr, x, top - face->size, max_width, 3 * face->size + (double)logical.height / PANGO_SCALE);
        cairo_clip(doc->cr);
    }
    cairo_move_to(doc->cr, left, top);
    pango_cairo_show_layout(doc->cr, layout);
    cairo_restore(doc->cr);
    return width;
}

double cdoc_text(cdoc_document *doc, int font, double size, double x, double baseline, double max_width, int align,
                 const char *utf8, long length) {
    if (length <= 0) return 0;
    cdoc_face *face = cdoc_face_for(doc, font, size);
    if (face->scaled && cdoc_plain(face, utf8, length)) return cdoc_plain_text(doc, face, x, baseline, max_width, align, utf8, length, 1);
    return cdoc_pango_text(doc, face, x, baseline, max_width, align, utf8, length, 1);
}

void cdoc_row(cdoc_document *doc, int font, double size, double baseline, int count, const double *x, const double *widths,
              const int *aligns, const char *const *texts, const long *lengths) {
    cdoc_face *face = cdoc_face_for(doc, font, size);
    for (int i = 0; i < count; i++) {
        if (!texts[i] || lengths[i] <= 0) continue;
        if (face->scaled && cdoc_plain(face, texts[i], lengths[i])) {
            cdoc_plain_text(doc, face, x[i], baseline, widths[i], aligns ? aligns[i] : CDOC_ALIGN_LEFT, texts[i], lengths[i], 1);
        } else {
            cdoc_pango_text(doc, face, x[i], baseline, widths[i], aligns ? aligns[i] : CDOC_ALIGN_LEFT, texts[i], lengths[i], 1);
        }
    }
}

void cdoc_text_box(cdoc_document *doc, int font, double size, double x, double top, double width, int max_lines, int align,
                   const char *utf8, long length) {
    if (length <= 0 || width <= 0 || max_lines < 1) return;
    cdoc_flush_run(doc);
    cdoc_face *face = cdoc_face_for(doc, font, size);
    PangoLayout *layout = doc->layout;
    pango_layout_set_font_description(layout, face->description);
    pango_layout_set_text(layout, cdoc_clean(doc, utf8, length), -1);
    pango_layout_set_width(layout, (int)(width * PANGO_SCALE));
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_height(layout, -max_lines);
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END);
    pango_layout_set_alignment(layout, align == CDOC_ALIGN_RIGHT    ? PANGO_ALIGN_RIGHT
                                       : align == CDOC_ALIGN_CENTER ? PANGO_ALIGN_CENTER
                                                                    : PANGO_ALIGN_LEFT);
    cairo_move_to(doc->cr, x, top);
    pango_cairo_show_layout(doc->cr, layout);
    pango_layout_set_height(layout, -1);
    pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT);
}

double cdoc_text_width(cdoc_document *doc, int font, double size, const char *utf8, long length) {
    if (length <= 0) return 0;
    cdoc_face *face = cdoc_face_for(doc, font, size);
    if (face->scaled && cdoc_plain(face, utf8, length)) return cdoc_plain_text(doc, face, 0, 0, 0, 0, utf8, length, 0);
    return cdoc_pango_text(doc, face, 0, 0, 0, 0, utf8, length, 0);
}

void cdoc_fill_rect(cdoc_document *doc, double x, double y, double width, double height) {
    cdoc_flush_run(doc);
    cairo_rectangle(doc->cr, x, y, width, height);
    cairo_fill(doc->cr);
}

void cdoc_stroke_rect(cdoc_document *doc, double x, double y, double width, double height, double line_width) {
    cdoc_flush_run(doc);
    cairo_set_line_width(doc->cr, line_width);
    cairo_rectangle(doc->cr, x, y, width, height);
    cairo_stroke(doc->cr);
}

void cdoc_line(cdoc_document *doc, double x1, double y1, double x2, double y2, double line_width) {
    cdoc_flush_run(doc);
    cairo_set_line_width(doc->cr, line_width);
    cairo_move_to(doc->cr, x1, y1);
    cairo_line_to(doc->cr, x2, y2);
    cairo_stroke(doc->cr);
}

void cdoc_ring_segment(cdoc_document *doc, double cx, double cy, double outer, double inner, double from, double to) {
    cdoc_flush_run(doc);
    /* Clockwise from 12 o'clock in the page's y-down space. */
    double a0 = from - M_PI / 2, a1 = to - M_PI / 2;
    cairo_new_path(doc->cr);
    cairo_arc(doc->cr, cx, cy, outer, a0, a1);
    cairo_arc_negative(doc->cr, cx, cy, inner, a1, a0);
    cairo_close_path(doc->cr);
    cairo_fill(doc->cr);
}

void cdoc_next_page(cdoc_document *doc) {
    cdoc_flush_run(doc);
    cairo_show_page(doc->cr);
}

int cdoc_status(cdoc_document *doc) {
    cairo_status_t status = cairo_status(doc->cr);
    return status != CAIRO_STATUS_SUCCESS ? (int)status : (int)cairo_surface_status(doc->surface);
}

int cdoc_finish(cdoc_document *doc) {
    cdoc_flush_run(doc);
    cairo_show_page(doc->cr);
    cairo_surface_finish(doc->surface);
    return cdoc_status(doc);
}

const char *cdoc_status_text(int status) { return cairo_status_to_string((cairo_status_t)status); }

void cdoc_destroy(cdoc_document *doc) {
    if (!doc) return;
    for (int i = 0; i < doc->face_count; i++) {
        pango_font_description_free(doc->faces[i].description);
        if (doc->faces[i].scaled) cairo_scaled_font_destroy(doc->faces[i].scaled);
    }
    g_object_unref(doc->layout);
    g_object_unref(doc->pango);
    cairo_destroy(doc->cr);
    cairo_surface_destroy(doc->surface);
    free(doc->scratch);
    free(doc);
}

/* MARK: symbols */

static struct zint_symbol *cdoc_encode(int symbology, const char *data, int length, char *error, int error_size) {
    struct zint_symbol *symbol = ZBarcode_Create();
    if (!symbol) {
        snprintf(error, (size_t)error_size, "out of memory");
        return NULL;
    }
    switch (symbology) {
    case CDOC_SYMBOL_QR:
        symbol->symbology = BARCODE_QRCODE;
        symbol->option_1 = 2; /* error correction level M */
        symbol->input_mode = UNICODE_MODE;
        break;
    case CDOC_SYMBOL_DATAMATRIX:
        symbol->symbology = BARCODE_DATAMATRIX;
        symbol->option_3 = DM_SQUARE;
        symbol->input_mode = UNICODE_MODE;
        break;
    case CDOC_SYMBOL_CODE128:
        symbol->symbology = BARCODE_CODE128;
        symbol->input_mode = DATA_MODE;
        break;
    default:
        snprintf(error, (size_t)error_size, "unknown symbology %d", symbology);
        ZBarcode_Delete(symbol);
        return NULL;
    }
    symbol->show_hrt = 0;
    symbol->whitespace_width = 0;
    symbol->whitespace_height = 0;
    symbol->border_width = 0;
    symbol->output_options |= BARCODE_NO_QUIET_ZONES;
    int result = ZBarcode_Encode(symbol, (const unsigned char *)data, length);
    if (result >= ZINT_ERROR) {
        snprintf(error, (size_t)error_size, "%s", symbol->errtxt);
        ZBarcode_Delete(symbol);
        return NULL;
    }
    return symbol;
}

int cdoc_symbol_measure(int symbology, const char *data, int length, int *columns, int *rows, char *error, int error_size) {
    struct zint_symbol *symbol = cdoc_encode(symbology, data, length, error, error_size);
    if (!symbol) return 1;
    *columns = symbol->width;
    *rows = symbology == CDOC_SYMBOL_CODE128 ? 1 : symbol->rows;
    ZBarcode_Delete(symbol);
    return 0;
}

int cdoc_symbol_draw(cdoc_document *doc, int symbology, const char *data, int length, double x, double y, double module,
                     double bar_height, char *error, int error_size) {
    struct zint_symbol *symbol = cdoc_encode(symbology, data, length, error, error_size);
    if (!symbol) return 1;
    cdoc_flush_run(doc);
    if (ZBarcode_Buffer_Vector(symbol, 0) >= ZINT_ERROR || !symbol->vector || symbol->vector->width <= 0 ||
        symbol->vector->height <= 0) {
        snprintf(error, (size_t)error_size, "%s", symbol->errtxt[0] ? symbol->errtxt : "no vector output");
        ZBarcode_Delete(symbol);
        return 1;
    }
    /* The vector is in zint's own units: fit its width to columns x module, and its height to
       the rows (2D) or to the bar height (Code 128). */
    double sx = module * symbol->width / symbol->vector->width;
    double sy = symbology == CDOC_SYMBOL_CODE128 ? bar_height / symbol->vector->height : sx;
    cairo_t *cr = doc->cr;
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_new_path(cr);
    /* One path filled once: adjacent modules join with no hairline seams when rasterised. */
    for (struct zint_vector_rect *rect = symbol->vector->rectangles; rect; rect = rect->next) {
        if (rect->colour > 0 && rect->colour != 7) continue; /* white and colours: not ours */
        cairo_rectangle(cr, x + rect->x * sx, y + rect->y * sy, rect->width * sx, rect->height * sy);
    }
    for (struct zint_vector_hexagon *hex = symbol->vector->hexagons; hex; hex = hex->next) {
        double radius = hex->diameter / 2;
        for (int k = 0; k < 6; k++) {
            double angle = M_PI / 3 * k + (hex->rotation == 90 || hex->rotation == 270 ? M_PI / 6 : 0);
            double px = x + (hex->x + radius * sin(angle)) * sx, py = y + (hex->y - radius * cos(angle)) * sy;
            if (k == 0) cairo_move_to(cr, px, py); else cairo_line_to(cr, px, py);
        }
        cairo_close_path(cr);
    }
    cairo_fill(cr);
    for (struct zint_vector_circle *circle = symbol->vector->circles; circle; circle = circle->next) {
        cairo_new_path(cr);
        if (circle->colour) cairo_set_source_rgb(cr, 1, 1, 1); else cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_arc(cr, x + circle->x * sx, y + circle->y * sy, circle->diameter / 2 * sx, 0, 2 * M_PI);
        if (circle->width > 0) {
            cairo_set_line_width(cr, circle->width * sx);
            cairo_stroke(cr);
        } else {
            cairo_fill(cr);
        }
    }
    cairo_restore(cr);
    ZBarcode_Delete(symbol);
    return 0;
}
