#pragma once
// Route computation for the 2-D mesh, chosen by name through one registry.
// Coordinates: node = y * width + x; East = x+1, West = x-1, North = y-1, South = y+1.
// A routing function returns the set (bit mask over Port) of admissible output ports
// of the current router; the router's VC allocator picks one (adaptive selection).
#include <cstdint>
#include <string>
#include <vector>

namespace vp::noc {

enum Port : std::uint8_t { kLocal = 0, kEast = 1, kWest = 2, kNorth = 3, kSouth = 4, kNumPorts = 5 };

inline const char* port_name(unsigned p);

struct RouteQuery {
    int cx, cy;        // current router
    int dx, dy;        // destination
    int sx, sy;        // source (odd-even needs it)
    unsigned in_port;  // input port the head arrived on
};

using RoutingFn = std::uint8_t (*)(const RouteQuery& q);

// Returns the function registered under name, or nullptr.
inline RoutingFn find_routing(const std::string& name);
// Comma-separated list of registered names (for error messages).
inline std::string known_routings();
// Adds (or replaces) a routing function; tests use it for a deliberately unsafe routing.
inline void register_routing(const std::string& name, RoutingFn fn);

// The built-in algorithms.
inline std::uint8_t route_xy(const RouteQuery& q);          // dimension order: x first, then y
inline std::uint8_t route_west_first(const RouteQuery& q);  // Glass & Ni turn model: all west hops first
inline std::uint8_t route_odd_even(const RouteQuery& q);    // Chiu's odd-even turn model (ROUTE, Fig. 4 of Chiu 2000)

inline std::uint8_t port_bit(unsigned p) { return static_cast<std::uint8_t>(1u << p); }

// Header-only so that NocParams::validate (built without the SystemC models) can use the registry.


namespace routing_detail {
struct Entry {
    std::string name;
    RoutingFn fn;
};
inline std::vector<Entry>& registry() {
    static std::vector<Entry> r = {{"xy", &route_xy}, {"west_first", &route_west_first}, {"odd_even", &route_odd_even}};
    return r;
}
}  // namespace routing_detail

inline const char* port_name(unsigned p) {
    static const char* const names[] = {"local", "east", "west", "north", "south"};
    return p < kNumPorts ? names[p] : "?";
}

inline RoutingFn find_routing(const std::string& name) {
    for (const auto& e : routing_detail::registry())
        if (e.name == name) return e.fn;
    return nullptr;
}

inline std::string known_routings() {
    std::string s;
    for (const auto& e : routing_detail::registry()) s += (s.empty() ? "" : ", ") + e.name;
    return s;
}

inline void register_routing(const std::string& name, RoutingFn fn) {
    for (auto& e : routing_detail::registry())
        if (e.name == name) {
            e.fn = fn;
            return;
        }
    routing_detail::registry().push_back({name, fn});
}

inline std::uint8_t route_xy(const RouteQuery& q) {
    if (q.dx > q.cx) return port_bit(kEast);
    if (q.dx < q.cx) return port_bit(kWest);
    if (q.dy > q.cy) return port_bit(kSouth);
    if (q.dy < q.cy) return port_bit(kNorth);
    return port_bit(kLocal);
}

// West-first (Glass & Ni 1992): if the destination is to the west, go west
// (deterministically); otherwise route adaptively among the productive east/north/south ports.
inline std::uint8_t route_west_first(const RouteQuery& q) {
    if (q.dx < q.cx) return port_bit(kWest);
    std::uint8_t m = 0;
    if (q.dx > q.cx) m |= port_bit(kEast);
    if (q.dy > q.cy) m |= port_bit(kSouth);
    if (q.dy < q.cy) m |= port_bit(kNorth);
    return m ? m : port_bit(kLocal);
}

// Odd-even turn model (Chiu, IEEE TPDS 2000, Fig. 4 "ROUTE"): no EN/ES turn in even
// columns, no NW/SW turn in odd columns. Columns are x coordinates.
inline std::uint8_t route_odd_even(const RouteQuery& q) {
    const int e0 = q.dx - q.cx, e1 = q.dy - q.cy;
    if (e0 == 0 && e1 == 0) return port_bit(kLocal);
    const unsigned vert = e1 > 0 ? kSouth : kNorth;
    std::uint8_t m = 0;
    if (e0 == 0) {
        m |= port_bit(vert);
    } else if (e0 > 0) {  // eastbound
        if (e1 == 0) {
            m |= port_bit(kEast);
        } else {
            if ((q.cx & 1) == 1 || q.cx == q.sx) m |= port_bit(vert);
            if ((q.dx & 1) == 1 || e0 != 1) m |= port_bit(kEast);
        }
    } else {  // westbound
        m |= port_bit(kWest);
        if ((q.cx & 1) == 0 && e1 != 0) m |= port_bit(vert);
    }
    return m;
}


}  // namespace vp::noc
