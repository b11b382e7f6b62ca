#version 300 es
// Coverage of a line of width 2·u_half_width: full inside, a one-pixel ramp at the edge.
precision highp float;

uniform vec4 u_color;  // straight (not premultiplied) RGBA
uniform float u_half_width;

in float v_across;
out vec4 frag_color;

void main() {
  float coverage = clamp(u_half_width + 0.5 - abs(v_across), 0.0, 1.0);
  if (coverage <= 0.0) discard;
  frag_color = vec4(u_color.rgb, u_color.a * coverage);
}
