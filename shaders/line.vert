#version 300 es
// Anti-aliased thick polyline, one instanced quad per segment. Points arrive normalised to the plot
// rectangle ([0,1] on both axes, y up); the quad is widened in pixels so lines stay crisp at any
// zoom and devicePixelRatio.
precision highp float;

layout(location = 0) in vec2 a_corner;  // x: 0 at the segment start, 1 at its end; y: side -1 / +1
layout(location = 1) in vec2 a_from;    // per instance: segment start, normalised
layout(location = 2) in vec2 a_to;      // per instance: segment end, normalised

uniform vec2 u_viewport;     // framebuffer size in pixels
uniform vec4 u_rect;         // plot rectangle in pixels: min x, min y, max x, max y (y down)
uniform float u_half_width;  // half the line width in pixels

out float v_across;  // signed distance from the centre line, pixels

vec2 to_pixels(vec2 t) {
  return vec2(mix(u_rect.x, u_rect.z, t.x), mix(u_rect.w, u_rect.y, t.y));
}

void main() {
  vec2 from = to_pixels(a_from);
  vec2 to = to_pixels(a_to);
  vec2 along = to - from;
  float len = length(along);
  vec2 dir = len > 1e-4 ? along / len : vec2(1.0, 0.0);
  vec2 normal = vec2(-dir.y, dir.x);
  // One extra pixel on each side leaves room for the fragment shader's coverage ramp; the same
  // extension along the segment gives square caps that close the joins of a polyline.
  float extent = u_half_width + 1.0;
  vec2 p = mix(from, to, a_corner.x) + dir * (a_corner.x * 2.0 - 1.0) * u_half_width +
           normal * a_corner.y * extent;
  v_across = a_corner.y * extent;
  vec2 ndc = p / u_viewport * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
