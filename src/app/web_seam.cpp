// The page seam: hands the worker's messages (web/PROTOCOL.md) to apply_message as JSON text and
// the app's commands back as objects. Only this file and main_web.cpp know they run in a browser.
#include "app/web_seam.h"

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace materialist::app::web {
namespace {

using emscripten::val;

bool same_layout(const std::vector<ButtonRect>& a, const std::vector<ButtonRect>& b) {
  return std::equal(
      a.begin(), a.end(), b.begin(), b.end(), [](const ButtonRect& x, const ButtonRect& y) {
        return x.label == y.label && x.x == y.x && x.y == y.y && x.w == y.w && x.h == y.h;
      });
}

}  // namespace

int drain_messages(AppState& state) {
  val inbox = val::module_property("materialistInbox");
  if (!inbox.isArray() || inbox["length"].as<int>() == 0) return 0;
  // splice(0) empties the page's queue and hands us its contents in one call; each message goes
  // through the protocol's decoder as JSON text.
  val messages = inbox.call<val>("splice", 0);
  val json = val::global("JSON");
  const int n = messages["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const val m = messages[i];
    apply_message(state,
                  m.isString() ? m.as<std::string>() : json.call<std::string>("stringify", m));
  }
  return n;
}

void send(const Command& command) {
  val handler = val::module_property("onAppCommand");
  if (handler.typeOf().as<std::string>() != "function") return;
  handler(val::global("JSON").call<val>("parse", encode_command(command)));
}

void send_json(const std::string& command) {
  val handler = val::module_property("onAppCommand");
  if (handler.typeOf().as<std::string>() != "function") return;
  handler(val::global("JSON").call<val>("parse", command));
}

void flush_play_commands(AppState& state) {
  std::vector<std::string> commands;
  commands.swap(state.play.outbox);
  for (const std::string& command : commands) send_json(command);
}

void publish_layout(const std::vector<ButtonRect>& buttons, std::vector<ButtonRect>& published) {
  if (same_layout(buttons, published)) return;
  published = buttons;
  val handler = val::module_property("onAppLayout");
  if (handler.typeOf().as<std::string>() != "function") return;
  val rects = val::object();
  for (const ButtonRect& b : buttons) {
    val rect = val::object();
    rect.set("x", val(b.x));
    rect.set("y", val(b.y));
    rect.set("width", val(b.w));
    rect.set("height", val(b.h));
    rects.set(b.label, rect);
  }
  handler(rects);
}

std::vector<unsigned char> take_font() {
  val font = val::module_property("materialistFont");
  if (font.isUndefined() || font.isNull()) return {};
  return emscripten::convertJSArrayToNumberVector<unsigned char>(font);
}

float device_pixel_ratio() {
  return static_cast<float>(emscripten_get_device_pixel_ratio());
}

void canvas_css_size(double& width, double& height) {
  emscripten_get_element_css_size("#canvas", &width, &height);
}

void canvas_pixel_size(int& width, int& height) {
  emscripten_get_canvas_element_size("#canvas", &width, &height);
}

void set_canvas_pixel_size(int width, int height) {
  emscripten_set_canvas_element_size("#canvas", width, height);
}

}  // namespace materialist::app::web
