/* The viewer page's inlined assets (lib/io/view.c): three.js and its
 * OrbitControls from Debian's libjs-three (paths from configure: THREE_JS,
 * THREE_ORBIT_JS), the page's script and style (tools/viewer/), each a
 * NUL-terminated string in read-only data. .incbin keeps the build from
 * turning 850 kB of JavaScript into C source. */
#define ASSET(sym, file)                \
  .section .rodata.lk_view_assets, "a"; \
  .globl sym;                           \
  .hidden sym;                          \
  .type sym, @object;                   \
sym:                                    \
  .incbin file;                         \
  .byte 0;                              \
  .size sym, . - sym

ASSET(lk_view_asset_three, LK_THREE_JS)
ASSET(lk_view_asset_orbit, LK_THREE_ORBIT_JS)
ASSET(lk_view_asset_js, LK_VIEWER_JS)
ASSET(lk_view_asset_css, LK_VIEWER_CSS)

  .section .note.GNU-stack, "", @progbits
