// Entry point of the canvas app: GLFW (Emscripten's JavaScript implementation) + WebGL2 + Dear
// ImGui. Each animation frame drains the worker's messages, draws the UI from AppState and hands
// the UI's commands to the page.
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>
#include <emscripten/emscripten.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/app_state.h"
#include "app/plot_renderer.h"
#include "app/ui.h"
#include "app/web_seam.h"
#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"

namespace materialist::app {
namespace {

constexpr float kBodyPoints = 15.0f, kLargePoints = 22.0f;

// Latin, Greek (θ α λ Δ), punctuation (… – ·), arrows, math (≈ ≤ −), check marks, ■, the chess
// pieces (♔ … ♟, the play-test's board).
constexpr std::array<ImWchar, 19> kGlyphRanges = {
    0x0020, 0x00FF, 0x0370, 0x03FF, 0x2000, 0x206F, 0x2190, 0x21FF, 0x2200, 0x22FF,
    0x25A0, 0x25A0, 0x2713, 0x2717, 0x2212, 0x2212, 0x2654, 0x265F, 0};

struct Runtime {
  GLFWwindow* window = nullptr;
  AppState state;
  PlotRenderer renderer;
  UiFonts fonts;
  std::vector<unsigned char> font_file;  // the atlas reads it, never owns it
  float scale = 0;                       // devicePixelRatio the fonts and style were built for
  float font_zoom = 0;                   // the text size factor the fonts were built for
  std::vector<ButtonRect> published_buttons;
  // Frames still to draw; 0 while nothing changes, so an idle page costs no CPU and the worker
  // gets both cores of a small machine.
  int frames_to_draw = 0;
  // While a file is read: the worker's news (progress, estimates) not drawn yet, ImGui passes
  // still to run without drawing, and when the last frame was drawn (ms, emscripten_get_now).
  bool news = false;
  int layout_passes = 0;
  double last_draw_ms = 0;
  protocol::Phase drawn_phase = protocol::Phase::kIdle;  // of the last frame drawn
  // The last ImGui frame's commands and size, for present(); true while it waits for its task.
  std::vector<Command> commands;
  int width = 0, height = 0;
  bool present_pending = false;
};

// After any change ImGui needs a few frames to settle (hover, press, release, layout).
constexpr int kFramesAfterChange = 4;
// While a file is read, the worker's news is drawn at most this often, in one drawn frame after
// one layout pass (ImGui without GL): each drawn frame costs a software renderer (SwiftShader,
// Chromium without a GPU) about 30 ms of CPU at 1280×800, and the page's thread waits for its
// readback, while the readers need the same cores. Input still draws at once.
constexpr double kReadingDrawMs = 500;
// While a play-test runs, its workers' news (boards, results) is drawn at most this often: the
// play workers need the cores, and a board five times a second is live enough.
constexpr double kPlayDrawMs = 200;

void note_change(GLFWwindow* window) {
  static_cast<Runtime*>(glfwGetWindowUserPointer(window))->frames_to_draw = kFramesAfterChange;
}

void build_fonts(Runtime& rt, float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  if (rt.font_file.empty()) {
    ImFontConfig config;
    config.SizePixels = std::round(13.0f * scale);
    rt.fonts.body = io.Fonts->AddFontDefault(&config);
    config.SizePixels = std::round(19.0f * scale);
    rt.fonts.large = io.Fonts->AddFontDefault(&config);
  } else {
    ImFontConfig config;
    config.FontDataOwnedByAtlas = false;
    config.OversampleH = 2;
    void* data = rt.font_file.data();
    const int size = static_cast<int>(rt.font_file.size());
    rt.fonts.body = io.Fonts->AddFontFromMemoryTTF(data, size, std::round(kBodyPoints * scale),
                                                   &config, kGlyphRanges.data());
    rt.fonts.large = io.Fonts->AddFontFromMemoryTTF(data, size, std::round(kLargePoints * scale),
                                                    &config, kGlyphRanges.data());
  }
  io.FontDefault = rt.fonts.body;
}

// Keeps the canvas backing store at CSS size × devicePixelRatio (crisp on HiDPI), and rebuilds
// fonts and style when the ratio changes (browser zoom, moving to another screen).
bool fit_canvas(Runtime& rt) {
  const float dpr = std::max(0.5f, web::device_pixel_ratio());
  double css_width = 0, css_height = 0;
  web::canvas_css_size(css_width, css_height);
  const int width = std::max(1, static_cast<int>(std::lround(css_width * dpr)));
  const int height = std::max(1, static_cast<int>(std::lround(css_height * dpr)));
  // Sized directly, not with glfwSetWindowSize: Emscripten's GLFW asks for fullscreen (and
  // pointer lock) whenever the requested size equals the screen's.
  int current_width = 0, current_height = 0;
  web::canvas_pixel_size(current_width, current_height);
  bool changed = false;
  if (width != current_width || height != current_height) {
    web::set_canvas_pixel_size(width, height);
    changed = true;
  }
  // Text a little larger on a wide screen (1920 CSS pixels), unless the user chose a size.
  const float zoom = rt.state.zoom > 0 ? rt.state.zoom : css_width >= 1800 ? 1.2f : 1.0f;
  if (dpr != rt.scale || zoom != rt.font_zoom) {
    changed = true;
    rt.scale = dpr;
    rt.font_zoom = zoom;
    build_fonts(rt, dpr * zoom);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    apply_style(dpr);
  }
  return changed;
}

// Draws ImGui's last frame (when `draw`) and hands its commands to the page.
void present(Runtime& rt, bool draw) {
  rt.present_pending = false;
  if (draw) {
    glViewport(0, 0, rt.width, rt.height);
    glClearColor(0.075f, 0.082f, 0.098f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  rt.renderer.end_frame();
  // Commands go out after drawing so a PNG export captures this very frame.
  for (const Command& command : rt.commands) {
    if (command.kind == Command::Kind::kDismissError) {
      rt.state.error.clear();
      if (rt.state.phase == protocol::Phase::kError) rt.state.phase = protocol::Phase::kIdle;
    }
    web::send(command);
  }
  rt.commands.clear();
  web::flush_play_commands(rt.state);
  web::publish_layout(rt.state.buttons, rt.published_buttons);
}

void present_pending(void* argument) {
  Runtime& rt = *static_cast<Runtime*>(argument);
  if (rt.present_pending) present(rt, true);
}

void frame(void* argument) {
  Runtime& rt = *static_cast<Runtime*>(argument);
  // A frame drawn in a task of its own (see below) goes first: ImGui's draw data lasts until
  // the next ImGui frame.
  if (rt.present_pending) present(rt, true);
  rt.state.play.now_ms = emscripten_get_now();
  if (web::drain_messages(rt.state) > 0) rt.news = true;
  // The play workers' next tasks go out at once, drawn or not (play_state.h).
  web::flush_play_commands(rt.state);
  const bool resized = fit_canvas(rt);
  glfwPollEvents();
  const double now = emscripten_get_now();
  // New data needs a frame, and one more for what ImGui sizes from the last frame (scroll
  // bars); input needs a few (hover, press, release). A toast keeps frames until it goes.
  // While reading, news waits for kReadingDrawMs (not the read's start) and its first frame is
  // a layout pass.
  if (rt.news && rt.state.phase == protocol::Phase::kReading) {
    const bool due = now - rt.last_draw_ms >= kReadingDrawMs || rt.drawn_phase != rt.state.phase;
    if (rt.frames_to_draw <= 0 && due) {
      rt.layout_passes = 1;
      rt.frames_to_draw = 1;
    }
  } else if (rt.news && rt.state.play.running()) {
    if (now - rt.last_draw_ms >= kPlayDrawMs) rt.frames_to_draw = std::max(rt.frames_to_draw, 1);
  } else if (rt.news) {
    rt.frames_to_draw = std::max(rt.frames_to_draw, 2);
  }
  if (resized) rt.frames_to_draw = std::max(rt.frames_to_draw, 2);
  if (!rt.state.toast.empty()) rt.frames_to_draw = std::max(rt.frames_to_draw, 1);
  // An active widget (a text cursor blinks) or a held button keeps frames coming.
  if (ImGui::IsAnyItemActive() || ImGui::IsAnyMouseDown()) rt.frames_to_draw = kFramesAfterChange;
  if (rt.frames_to_draw <= 0) return;  // nothing changed: the last frame stays on screen
  const bool layout_only = rt.layout_passes > 0 && rt.frames_to_draw <= 1;
  if (layout_only) {
    --rt.layout_passes;
  } else {
    --rt.frames_to_draw;
    rt.layout_passes = 0;
    rt.news = false;  // this frame draws it
    rt.last_draw_ms = now;
    rt.drawn_phase = rt.state.phase;
  }

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // GLFW's idea of the window size is stale (see fit_canvas); mouse positions arrive in canvas
  // pixels, so ImGui works in framebuffer pixels throughout.
  int width = 0, height = 0;
  web::canvas_pixel_size(width, height);
  ImGui::GetIO().DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
  ImGui::GetIO().DisplayFramebufferScale = ImVec2(1, 1);
  ImGui::GetIO().MouseWheel += rt.state.wheel_y;
  ImGui::GetIO().MouseWheelH += rt.state.wheel_x;
  rt.state.wheel_x = rt.state.wheel_y = 0;
  ImGui::NewFrame();
  rt.commands = draw_ui(rt.state, rt.renderer, rt.fonts, rt.scale);
  ImGui::Render();
  rt.width = width;
  rt.height = height;
  if (layout_only) {  // a layout pass leaves the canvas alone: no GL, nothing to composite
    present(rt, false);
  } else if (rt.state.phase == protocol::Phase::kReading) {
    // Drawn in a task of its own right after this one: the page's commit that follows this
    // animation frame then has nothing new to read back, and the software renderer draws while
    // the page idles until the next one, whose commit finds the frame (mostly) drawn.
    rt.present_pending = true;
    emscripten_async_call(present_pending, &rt, 0);
  } else {
    present(rt, true);
  }
}
}  // namespace
}  // namespace materialist::app

int main() {
  using namespace materialist::app;
  if (!glfwInit()) {
    std::fprintf(stderr, "materialist: glfwInit failed\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // Neither ImGui nor the plots test depth or stencil: a drawing buffer without them is one less
  // buffer to clear for every frame (a software renderer's cost, such as SwiftShader's).
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  // The runtime lives as long as the page: the main loop never returns.
  auto* rt = new Runtime();
  rt->window = glfwCreateWindow(64, 64, "Materialist", nullptr, nullptr);
  if (rt->window == nullptr) {
    std::fprintf(stderr, "materialist: WebGL2 is not available\n");
    return 1;
  }
  glfwMakeContextCurrent(rt->window);
  glfwSetWindowUserPointer(rt->window, rt);
  // Installed before ImGui's, which chains to them: every input event wakes the drawing up.
  glfwSetCursorPosCallback(rt->window, [](GLFWwindow* w, double, double) { note_change(w); });
  glfwSetMouseButtonCallback(rt->window, [](GLFWwindow* w, int, int, int) { note_change(w); });
  glfwSetKeyCallback(rt->window, [](GLFWwindow* w, int, int, int, int) { note_change(w); });
  glfwSetCharCallback(rt->window, [](GLFWwindow* w, unsigned int) { note_change(w); });
  rt->frames_to_draw = kFramesAfterChange;

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // nothing to persist between visits
  rt->font_file = web::take_font();
  ImGui_ImplGlfw_InitForOpenGL(rt->window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  std::string error;
  if (!rt->renderer.init(error)) {
    std::fprintf(stderr, "materialist: %s (plots fall back to none)\n", error.c_str());
  }
  emscripten_set_main_loop_arg(frame, rt, 0, true);
  return 0;
}
