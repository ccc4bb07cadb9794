#if !canImport(CVips) && !canImport(ImageIO)
    #error("QuireMedia needs libvips (Linux: the CVips target) or ImageIO (Apple)")
#endif
