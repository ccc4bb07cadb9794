#ifndef QUIRE_CVIPS_SHIM_H
#define QUIRE_CVIPS_SHIM_H

#include <vips/vips.h>

// libvips takes its optional arguments as NULL-terminated variadic lists, which Swift does not
// import: one fixed wrapper per call QuireMedia makes. Files are read and written through
// VipsSource and VipsTarget, never by file name, because libvips reads "name.jpg[Q=90]" in a
// file name as options: a photo called "beach[1].jpg" would otherwise fail or be misread.

/// Opens an image for one top-to-bottom pass (sequential access keeps memory bounded), failing
/// on a truncated file instead of filling the missing rows with grey.
static inline VipsImage *qvips_image_new_sequential(VipsSource *source) {
    return vips_image_new_from_source(source, "", "access", VIPS_ACCESS_SEQUENTIAL,
                                      "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/// A thumbnail that fits a `size` x `size` box, turned upright by its EXIF orientation, never
/// enlarged, failing on a truncated file.
static inline int qvips_thumbnail_source(VipsSource *source, VipsImage **out, int size) {
    return vips_thumbnail_source(source, out, size, "height", size, "size", VIPS_SIZE_DOWN,
                                 "fail_on", VIPS_FAIL_ON_TRUNCATED, NULL);
}

/// A new image header over the same pixels, whose metadata can be changed without touching `in`.
static inline int qvips_copy(VipsImage *in, VipsImage **out) {
    return vips_copy(in, out, NULL);
}

/// Puts a transparent image on white (a JPEG has no alpha; libvips would otherwise drop it and
/// leave transparent areas black).
static inline int qvips_flatten_white(VipsImage *in, VipsImage **out) {
    VipsArrayDouble *white = vips_array_double_newv(1, 255.0);
    int result = vips_flatten(in, out, "background", white, NULL);
    vips_area_unref(VIPS_AREA(white));
    return result;
}

/// Writes a JPEG with no metadata at all (no EXIF, XMP, IPTC or ICC profile).
static inline int qvips_jpegsave_stripped(VipsImage *in, VipsTarget *target, int quality) {
    return vips_jpegsave_target(in, target, "Q", quality, "strip", TRUE, NULL);
}

/// Writes in the format `suffix` names (".jpg[Q=92]", ".png", ...), keeping the image's metadata.
static inline int qvips_write_to_target(VipsImage *in, const char *suffix, VipsTarget *target) {
    return vips_image_write_to_target(in, suffix, target, NULL);
}

/// Drops a reference to any libvips object (VipsImage, VipsSource, VipsTarget).
static inline void qvips_unref(void *object) {
    g_object_unref(object);
}

#endif
