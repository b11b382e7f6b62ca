#version 300 es
// A filled disk with a darker one-pixel rim, both with analytic edge coverage.
precision highp float;

in vec2 v_offset;
in float v_radius;
in vec4 v_color;
out vec4 frag_color;

void main() {
  float d = length(v_offset);
  float coverage = clamp(v_radius + 0.5 - d, 0.0, 1.0);
  if (coverage <= 0.0) discard;
  float rim = clamp(d - (v_radius - 1.5), 0.0, 1.0);  // 0 inside, 1 on the outer pixel ring
  vec3 rgb = mix(v_color.rgb, v_color.rgb * 0.55, rim);
  float alpha = mix(v_color.a, 1.0, rim) * coverage;
  frag_color = vec4(rgb, alpha);
}
