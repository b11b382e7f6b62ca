#version 300 es
// Anti-aliased disks (scatter points sized by count), one instanced quad per point.
precision highp float;

layout(location = 0) in vec2 a_corner;  // -1..1 on both axes
layout(location = 1) in vec3 a_point;   // per instance: centre (normalised to the plot), radius px
layout(location = 2) in vec4 a_color;   // per instance: fill RGBA

uniform vec2 u_viewport;
uniform vec4 u_rect;  // plot rectangle in pixels: min x, min y, max x, max y (y down)

out vec2 v_offset;  // pixels from the centre
out float v_radius;
out vec4 v_color;

void main() {
  vec2 centre = vec2(mix(u_rect.x, u_rect.z, a_point.x), mix(u_rect.w, u_rect.y, a_point.y));
  float extent = a_point.z + 1.0;
  v_offset = a_corner * extent;
  v_radius = a_point.z;
  v_color = a_color;
  vec2 ndc = (centre + v_offset) / u_viewport * 2.0 - 1.0;
  gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);
}
