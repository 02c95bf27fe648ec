#include "models/nmp/fabric.h"

#include <algorithm>

namespace vp::nmp {

using namespace sc_core;

namespace {

const char* const kKind[3] = {"multicast", "load", "store"};
const char* const kKindDesc[3] = {"IN tile multicasts (one transfer into every target TLT's MB0)",
                                  "W tile loads (unicast into one TLT's MB1)",
                                  "OUT tile stores (unicast out of one TLT's MB2)"};

// Total length of the union of intervals (sorted in place).
sc_time union_length(std::vector<std::pair<sc_time, sc_time>>& v) {
    std::sort(v.begin(), v.end());
    sc_time total = SC_ZERO_TIME, cur_s = SC_ZERO_TIME, cur_e = SC_ZERO_TIME;
    bool open = false;
    for (const auto& [s, e] : v) {
        if (e <= s) continue;
        if (open && s <= cur_e) {
            cur_e = std::max(cur_e, e);
            continue;
        }
        if (open) total += cur_e - cur_s;
        cur_s = s;
        cur_e = e;
        open = true;
    }
    if (open) total += cur_e - cur_s;
    return total;
}

}  // namespace

Fabric::Fabric(stats::Group& parent, int n_ports, const mapper::tso::FabricParams& p, double cycle_s,
               trace::Tracer* tracer)
    : m_p(p),
      m_cycle_s(cycle_s),
      m_stats(parent, "fabric"),
      m_port_bytes(m_stats, "port_bytes", "bytes through the TLT ports (a multicast counted at every target port)",
                   "B") {
    for (int k = 0; k < 3; ++k) {
        const std::string n = kKind[k];
        m_xfers[k] = std::make_unique<stats::Counter>(m_stats, n + "_transfers", kKindDesc[k], "count");
        m_bytes[k] = std::make_unique<stats::Counter>(m_stats, n + "_bytes", std::string("payload bytes of the ") + kKindDesc[k], "B");
        m_wait[k] = std::make_unique<stats::Scalar>(m_stats, n + "_wait_cycles",
                                                    "cycles from the request of these transfers to their start (ports busy)",
                                                    "cycles");
        m_contention[k] = std::make_unique<stats::Scalar>(
            m_stats, n + "_contention_cycles",
            k == 0 ? "cycles multicasts waited while a target port was held by a W load or an OUT store"
                   : "cycles these unicast transfers waited while their port was held by a multicast",
            "cycles");
    }
    m_ports.resize(std::size_t(n_ports));
    for (int j = 0; j < n_ports; ++j) {
        Port& q = m_ports[std::size_t(j)];
        q.group = std::make_unique<stats::Group>(m_stats, "port[" + std::to_string(j) + "]");
        q.bytes = std::make_unique<stats::Counter>(*q.group, "bytes", "bytes through the port (in and out)", "B");
        q.busy = std::make_unique<stats::Scalar>(*q.group, "busy_cycles", "cycles the port is held by a transfer", "cycles");
        q.wait = std::make_unique<stats::Scalar>(*q.group, "wait_cycles",
                                                 "request-to-start cycles of the transfers through the port", "cycles");
        q.contention = std::make_unique<stats::Scalar>(
            *q.group, "contention_cycles",
            "cycles a transfer through the port waited while the port was held by the other kind (multicast vs "
            "load/store)",
            "cycles");
        if (tracer) q.sig = tracer->add(q.group->path() + ".busy", 1);
        m_traced = m_traced || q.sig;
    }
}

Fabric::Xfer Fabric::transfer(FabricKind kind, const std::vector<int>& ports, std::uint64_t bytes, const sc_time& request,
                              const sc_time& data_end) {
    const int k = int(kind);
    Xfer x;
    x.start = request;
    for (int j : ports) x.start = std::max(x.start, m_ports[std::size_t(j)].free);
    const sc_time hold = sc_time(double(m_p.cycles(bytes)) * m_cycle_s, SC_SEC);
    x.end = std::max(x.start + hold, data_end);
    x.ready = x.end + sc_time(double(m_p.latency_cycles) * m_cycle_s, SC_SEC);

    // Contention: the part of [request, start) during which one of its ports was held by the
    // other kind (union over the ports), and per port its own share.
    std::vector<std::pair<sc_time, sc_time>> other;
    for (int j : ports) {
        Port& q = m_ports[std::size_t(j)];
        std::vector<std::pair<sc_time, sc_time>> mine;
        for (const Hold& h : q.recent)
            if (other_kind(kind, h.kind) && h.end > request && h.start < x.start)
                mine.emplace_back(std::max(h.start, request), std::min(h.end, x.start));
        other.insert(other.end(), mine.begin(), mine.end());
        q.contention_t += union_length(mine);
        q.wait_t += x.start - request;
        q.busy_t += x.end - x.start;
        *q.bytes += bytes;
        m_port_bytes += bytes;
        // Requests come in time order: holds that ended before this request are never looked at again.
        q.recent.erase(std::remove_if(q.recent.begin(), q.recent.end(), [&](const Hold& h) { return h.end <= request; }),
                       q.recent.end());
        q.recent.push_back(Hold{x.start, x.end, kind});
        q.free = x.end;
        if (q.sig) {
            if (!q.holds.empty() && q.holds.back().second == sc_max_time()) q.holds.back() = {x.start, x.end};
            else q.holds.emplace_back(x.start, x.end);
        }
    }
    m_contention_t[k] += union_length(other);
    m_wait_t[k] += x.start - request;
    ++*m_xfers[k];
    *m_bytes[k] += bytes;
    return x;
}

void Fabric::announce(const std::vector<int>& ports, const sc_time& request) {
    if (!m_traced) return;
    sc_time start = request;
    for (int j : ports) start = std::max(start, m_ports[std::size_t(j)].free);
    for (int j : ports)
        if (m_ports[std::size_t(j)].sig) m_ports[std::size_t(j)].holds.emplace_back(start, sc_max_time());
}

sc_time Fabric::idle_at() const {
    sc_time t = SC_ZERO_TIME;
    for (const Port& q : m_ports) t = std::max(t, q.free);
    return t;
}

sc_time Fabric::trace(const sc_time& now) {
    const std::uint64_t ps = now.value() / sc_time(1, SC_PS).value();
    sc_time next = SC_ZERO_TIME;
    auto consider = [&](const sc_time& t) {
        if (t > now && (next == SC_ZERO_TIME || t < next)) next = t;
    };
    for (Port& q : m_ports) {
        if (!q.sig) continue;
        while (!q.holds.empty() && q.holds.front().second <= now) q.holds.erase(q.holds.begin());
        const bool busy = !q.holds.empty() && q.holds.front().first <= now;
        q.sig->set(busy ? 1 : 0, ps);
        if (!q.holds.empty()) consider(busy ? q.holds.front().second : q.holds.front().first);
    }
    return next;
}

void Fabric::finish() {
    const double cyc = m_cycle_s;
    for (int k = 0; k < 3; ++k) {
        m_wait[k]->set(m_wait_t[k].to_seconds() / cyc);
        m_contention[k]->set(m_contention_t[k].to_seconds() / cyc);
    }
    for (Port& q : m_ports) {
        q.busy->set(q.busy_t.to_seconds() / cyc);
        q.wait->set(q.wait_t.to_seconds() / cyc);
        q.contention->set(q.contention_t.to_seconds() / cyc);
    }
}

}  // namespace vp::nmp
