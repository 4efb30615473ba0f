// The registry: the entries of every folder that registers (search/registration.hpp), asked once.
#include "harness/registry/registry.hpp"

#include <stdexcept>

#include "base/text.hpp"

namespace navbench {

namespace {

// Every registered entry, listed or not, in the order of the folders' names.
const std::vector<RepresentationEntry>& every_entry() {
  static const std::vector<RepresentationEntry> entries = [] {
    Registrar r;
    for (const auto& [folder, add] : registrations()) add(r);
    if (r.entries().empty())
      throw std::logic_error("no planner registered: this program links no registration (navbench_link_planners in CMake)");
    return std::move(r.entries());
  }();
  return entries;
}

}  // namespace

const std::vector<RepresentationEntry>& representations() {
  static const std::vector<RepresentationEntry> listed = [] {
    std::vector<RepresentationEntry> out;
    for (const RepresentationEntry& e : every_entry())
      if (e.listed) out.push_back(e);
    return out;
  }();
  return listed;
}

std::vector<std::string> registered_names() {
  std::vector<std::string> out;
  for (const auto& e : every_entry()) out.push_back(e.name);
  return out;
}

const RepresentationEntry* find_representation(const std::string& name) {
  for (const auto& e : every_entry())
    if (e.name == name) return &e;
  return nullptr;
}

const RepresentationEntry* reference_representation() {
  // The entry that declares the reference role (R::kReferenceParams, its cheapest exact variant);
  // else the first exact entry that is not a costly build (opt-in). Not merely the first exact one:
  // folders register in name order, and region-labels (exact, opt-in, seconds of build a map) came
  // before visgraph, so every run's optimum built its labels.
  for (const auto& e : representations())
    if (e.caps.exact && !e.reference_params.empty()) return &e;
  for (const auto& e : representations())
    if (e.caps.exact && !e.opt_in) return &e;
  return nullptr;
}

namespace {

const RepresentationEntry& known(const std::string& n) {
  if (const RepresentationEntry* e = find_representation(n)) return *e;
  std::string names;
  for (const auto& e : representations()) names += (names.empty() ? "" : ", ") + e.name;
  throw std::invalid_argument("unknown representation '" + n + "' (known: " + names + ")");
}

// "name:k=v,...", checked against the entry's declaration: every key declared (erode: the harness's
// key of a shrunk-map entry), every value of its declared type and range, no declared clash. The
// representation's own keys stay in `params` (in order), erode becomes the typed field.
RepresentationSpec parse_spec(const std::string& value, std::size_t colon) {
  RepresentationSpec s;
  s.text = value;
  if (value.substr(0, colon).find(',') != std::string::npos)
    throw std::invalid_argument("--rep '" + value + "': a list of names takes no parameters, and a name with parameters " +
                                "is given alone (one --rep each: --rep " + value.substr(0, value.substr(0, colon).rfind(',')) +
                                " --rep " + value.substr(value.substr(0, colon).rfind(',') + 1) + ")");
  s.entry = &known(value.substr(0, colon));
  const std::string given = value.substr(colon + 1);
  if (s.entry->own_check) {  // its own check (a competition entry: rows named by name=, never the path)
    s.text = s.entry->own_check(given);
    s.params = given;
    return s;
  }
  std::vector<ParamDecl> declared(s.entry->params.begin(), s.entry->params.end());
  if (s.entry->caps.radius == RadiusSupport::shrunk_map) declared.push_back(kErodeParam);
  Params::parse(given).check(declared, s.entry->clashes, s.entry->name);
  for (const std::string& kv : given.empty() ? std::vector<std::string>{} : base::split_list(given)) {
    if (kv.rfind(std::string(kErodeParam.name) + "=", 0) == 0) {
      Params e = Params::parse(kv);
      s.erode = Erosion(e.choice(kErodeParam));  // the choice's index is the Erosion value
    } else {
      s.params += (s.params.empty() ? "" : ",") + kv;
    }
  }
  return s;
}

}  // namespace

std::string RepresentationSpec::build_params(const Params& read, bool shrunk) const {
  std::string out = read.canonical();
  if (shrunk && caps().radius == RadiusSupport::shrunk_map)
    out = std::string(kErodeParam.name) + "=" + to_string(erosion()) + (out.empty() ? "" : "," + out);
  return out;
}

std::vector<RepresentationSpec> parse_rep_option(const std::string& value) {
  std::vector<RepresentationSpec> out;
  if (auto colon = value.find(':'); colon != std::string::npos) {
    // Checked now, against the declaration, so a bad option fails the command before any work.
    out.push_back(parse_spec(value, colon));
    return out;
  }
  for (const std::string& n : base::split_list(value)) {
    if (n.empty()) throw std::invalid_argument("empty representation name in --rep '" + value + "'");
    RepresentationSpec s;
    s.text = n;
    s.entry = &known(n);
    if (s.entry->own_check) s.entry->own_check("");  // its own check of no parameters (an entry needs path= and track=)
    out.push_back(s);
  }
  return out;
}

bool names_outside_planner(const std::string& text) {
  for (const std::string& n : base::split_list(text.substr(0, text.find(':'))))
    if (const RepresentationEntry* e = find_representation(n); e && e->caps.outside) return true;
  return false;
}

bool any_outside_planner(const std::vector<RepresentationSpec>& reps) {
  for (const RepresentationSpec& r : reps)
    if (r.caps().outside) return true;
  return false;
}

}  // namespace navbench
