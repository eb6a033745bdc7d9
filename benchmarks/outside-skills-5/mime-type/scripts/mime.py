#!/usr/bin/env python3
import sys

TYPES = {
    "html": "text/html", "htm": "text/html", "css": "text/css", "js": "text/javascript",
    "mjs": "text/javascript", "json": "application/json", "xml": "application/xml",
    "txt": "text/plain", "csv": "text/csv", "md": "text/markdown", "svg": "image/svg+xml",
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
    "webp": "image/webp", "avif": "image/avif", "ico": "image/vnd.microsoft.icon",
    "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff", "heic": "image/heic",
    "mp3": "audio/mpeg", "wav": "audio/wav", "ogg": "audio/ogg", "oga": "audio/ogg",
    "flac": "audio/flac", "m4a": "audio/mp4", "mp4": "video/mp4", "webm": "video/webm",
    "mov": "video/quicktime", "mkv": "video/x-matroska", "pdf": "application/pdf",
    "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
    "7z": "application/x-7z-compressed", "woff": "font/woff", "woff2": "font/woff2",
    "ttf": "font/ttf", "otf": "font/otf", "wasm": "application/wasm",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "epub": "application/epub+zip", "ics": "text/calendar", "yaml": "application/yaml",
    "yml": "application/yaml",
}
COMPRESSED = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/avif", "image/heic",
              "audio/", "video/", "application/zip", "application/gzip", "application/x-7z",
              "font/woff", "application/epub", "application/vnd.openxml")

if len(sys.argv) != 2:
    sys.exit("usage: mime.py FILE_OR_EXTENSION")
name = sys.argv[1].strip().lower()
ext = name.rsplit(".", 1)[-1] if "." in name else name
if ext not in TYPES:
    sys.exit(f"mime.py: no type known for {sys.argv[1]!r}")
mime = TYPES[ext]
print(f".{ext}: {mime}")
if mime.startswith(COMPRESSED):
    print("already compressed: do not gzip it again")
else:
    print("compressible: serve with gzip or brotli")
