### Manual pages
