#include "mapper/waving/mesh_time_model.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <utility>

#include "mapper/common/errors.h"
#include "mapper/waving/mva.h"

namespace vp::mapper::waving {

void MeshCoefficients::validate(const std::string& p) const {
    auto req = [&](double v, double lo, double hi, const char* f) {
        if (!std::isfinite(v) || v < lo || v > hi)
            throw InputError(p + "." + f + ": expected a number in [" + std::to_string(lo) + ", " +
                             std::to_string(hi) + "]");
    };
    req(latency_scale, 0, 100, "latency_scale");
    req(dram_scale, 0, 100, "dram_scale");
    req(conflict, 0, 100, "conflict");
    req(contention, 0, 100, "contention");
    req(shared_scale, 0, 100, "shared_scale");
    req(port_scale, 0, 100, "port_scale");
    req(layer_cycles, -1e6, 1e6, "layer_cycles");
    req(wait_scale, 0, 100, "wait_scale");
    req(slot_scale, 0, 100, "slot_scale");
    req(mva_row_miss, 0, 1, "mva_row_miss");
    req(mva_bus_scale, 0.01, 100, "mva_bus_scale");
    req(mva_stream_scale, 0, 100, "mva_stream_scale");
    req(mva_port_scale, 0.01, 100, "mva_port_scale");
    req(mva_layer_cycles, -1e6, 1e6, "mva_layer_cycles");
    req(ph_turn, 0, 10, "ph_turn");
    req(ph_conflict, 0, 10, "ph_conflict");
    req(ph_port, 0, 100, "ph_port");
    req(ph_stream, 0, 100, "ph_stream");
    req(ph_wait, 0, 100, "ph_wait");
    req(ph_sync, 0, 1, "ph_sync");
    req(ph_layer_cycles, -1e6, 1e6, "ph_layer_cycles");
    req(ph_bus, 0, 100, "ph_bus");
    req(ph_tail, 0, 1, "ph_tail");
    req(pg_turn, 0, 10, "pg_turn");
    req(pg_port, 0, 100, "pg_port");
    req(pg_stream, 0, 100, "pg_stream");
    req(pg_wait, 0, 100, "pg_wait");
    req(pg_sync, 0, 1, "pg_sync");
    req(pg_layer_cycles, -1e6, 1e6, "pg_layer_cycles");
    req(pg_bus, 0, 100, "pg_bus");
    req(pg_tail, 0, 1, "pg_tail");
    req(pg_collide, 0, 10, "pg_collide");
    req(pg_own, 0, 1, "pg_own");
    req(pg_tail_from, 1, 64, "pg_tail_from");
    req(pg_tail_full, 0, 64, "pg_tail_full");
    req(pg_queue, 0, 4, "pg_queue");
    if (pg_port_packet != -1) req(pg_port_packet, 0, 100, "pg_port_packet");
    if (pg_tail_full != 0 && !(pg_tail_full > pg_tail_from))
        throw InputError(p + ".pg_tail_full: " + std::to_string(pg_tail_full) +
                         " must be 0 (the share (k - pg_tail_from) / (k - 1)) or above pg_tail_from (" +
                         std::to_string(pg_tail_from) + ")");
}

// Data-bus time lost per request to row conflicts between the streams of `active` cores: a
// conflict costs a precharge and an activate (tRP + tRCD); `conflict` requests in one conflict
// when the streams of many cores interleave, (1 - 1/k) of that with k streams (none with one).
double CalibratedMeshModel::conflict_cycles(const MeshHwFigures& hw, double tck, int active) const {
    const double k = double(std::max(active, 1));
    return m_c.conflict * (1.0 - 1.0 / k) * double(hw.dram.tRP + hw.dram.tRCD) * tck;
}

double CalibratedMeshModel::core_cycles(const OpProfile& p, const CoreContext& c, const tiling::AsipParams& asip,
                                        const MeshMapParams& mesh) const {
    const MeshHwFigures& hw = mesh.hw;
    if (!hw.valid())
        throw InputError("mapper.mesh_model: the calibrated model needs the DRAM and NoC figures of the platform");
    const double core_ns = 1000.0 / asip.core_mhz;       // one core cycle [ns]
    const double flit = asip.core_mhz / mesh.noc_mhz;    // one NoC cycle in core cycles
    const double tck = hw.dram.tck_ns / core_ns;         // one DRAM clock in core cycles
    // Unloaded DRAM access of a request (row miss: activate, CAS, the data burst) and the
    // NoC round trip: the request's head and the response's head over hops + 1 routers each way.
    const double dram_lat = double(hw.dram.frontend_latency_ck + hw.dram.tRCD + hw.dram.CL + hw.dram.burst_cycles) * tck;
    const double noc_lat = 2.0 * double(c.hops + 1) * double(hw.hop_cycles) * flit;
    const double lat = m_c.latency_scale * (dram_lat + noc_lat);
    const double lat_wait = m_c.wait_scale * (dram_lat + noc_lat);
    const double slot = m_c.slot_scale * dram_lat;  // time a request holds a slot of the interface's cap
    // Cores that compete with this one on the shared side: k^contention (1: every other core
    // always competes, 0: none; the active cores are not all moving data at the same time).
    const double keff = std::pow(double(std::max(c.active, 1)), m_c.contention);
    const double t_burst = double(hw.dram.burst_cycles) * tck * m_c.dram_scale;
    const double t_conf = conflict_cycles(hw, tck, c.active);
    const double out = double(std::max(asip.dma_max_outstanding, 1));
    const double cap = double(hw.dram_if_outstanding);
    const double setup = double(asip.dma_setup_cycles);
    // A transfer's own time after its latency L: one request per core cycle, the DMA engine's
    // outstanding limit (Little), one stream through the routers, and its own demand on the
    // shared side (the interface's port, the DRAM data bus, the interface's request slots).
    // The k_eff competing cores' demand on the shared side is served while this core waits
    // out its latency, so it is not added to L: the entry takes max(L + own, k_eff x shared).
    auto shared_of = [&](const XferFeatures& x) {
        const double n = double(x.transfers);
        const double f = double(std::max(x.flits_in, x.flits_out));
        return std::max({f * flit, double(x.bursts) * t_burst + n * t_conf, n * slot / cap});
    };
    auto own_of = [&](const XferFeatures& x, double l) {
        const double n = double(x.transfers);
        const double f = double(std::max(x.flits_in, x.flits_out));
        return std::max({n, n * l / out, m_c.port_scale * f * flit, shared_of(x)});
    };
    double t = 0;
    for (const ProfileEntry& e : p.entries) {
        double d = 0;
        if (e.x.transfers) {
            const double l = e.wait ? lat_wait : lat;
            d = std::max(l + own_of(e.x, lat), keff * shared_of(e.x));
        }
        const double one = setup * double(e.x.dma_ops) + (e.wait ? d : std::max(double(e.compute), d));
        t += one * double(e.count);
    }
    return t;
}

double CalibratedMeshModel::shared_cycles(const OpProfile& p, const tiling::AsipParams& asip,
                                          const MeshMapParams& mesh, int active) const {
    const MeshHwFigures& hw = mesh.hw;
    if (!hw.valid() || m_c.shared_scale == 0.0) return 0.0;
    const double core_ns = 1000.0 / asip.core_mhz;
    const double flit = asip.core_mhz / mesh.noc_mhz;
    const double tck = hw.dram.tck_ns / core_ns;
    const double dram_lat = double(hw.dram.frontend_latency_ck + hw.dram.tRCD + hw.dram.CL + hw.dram.burst_cycles) * tck;
    const double t_burst = double(hw.dram.burst_cycles) * tck * m_c.dram_scale;
    const double t_conf = conflict_cycles(hw, tck, active);
    const double cap = double(hw.dram_if_outstanding);
    const double slot = m_c.slot_scale * dram_lat;
    double t = 0;
    for (const ProfileEntry& e : p.entries) {
        const double f = double(std::max(e.x.flits_in, e.x.flits_out)) * flit;
        const double n = double(e.x.transfers);
        const double d = std::max({f, double(e.x.bursts) * t_burst + n * t_conf, n * slot / cap});
        t += d * double(e.count);
    }
    return m_c.shared_scale * t;
}

// ---- queueing model ----

namespace {

struct Clocks {
    double flit = 0;  // one NoC cycle [core cycles]
    double tck = 0;   // one DRAM clock [core cycles]
};

Clocks clocks_of(const tiling::AsipParams& asip, const MeshMapParams& mesh) {
    const double core_ns = 1000.0 / asip.core_mhz;
    return Clocks{asip.core_mhz / mesh.noc_mhz, mesh.hw.dram.tck_ns / core_ns};
}

}  // namespace

QueueingMeshModel::Demands QueueingMeshModel::demands(const OpProfile& p, int active, const tiling::AsipParams& asip,
                                                      const MeshMapParams& mesh) const {
    const MeshHwFigures& hw = mesh.hw;
    const Clocks ck = clocks_of(asip, mesh);
    Demands d;
    double n = 0, b = 0, fin = 0, fout = 0, n2 = 0;
    for (const ProfileEntry& e : p.entries) {
        const double c = double(e.count), t = double(e.x.transfers);
        n += c * t;
        n2 += c * t * t;  // transfer-weighted mean of the transfers an entry issues together
        b += c * double(e.x.bursts);
        fin += c * double(e.x.flits_in);
        fout += c * double(e.x.flits_out);
    }
    d.requests = n;
    if (n <= 0) return d;
    // The interface's ports: the core's outgoing flits arrive there, its incoming flits leave
    // from there (mva_port_scale NoC cycles per flit).
    d.port_in = fout / n * ck.flit * m_c.mva_port_scale;
    d.port_out = fin / n * ck.flit * m_c.mva_port_scale;
    d.bus = b / n * double(hw.dram.burst_cycles) * ck.tck * m_c.mva_bus_scale;
    d.banks = int(std::max(1u, hw.dram.channels) * std::max(1u, hw.dram.ranks) * std::max(1u, hw.dram.banks));
    const double bytes = b / n * double(hw.dram.burst_bytes);
    const double own = hw.dram.row_bytes ? std::min(1.0, bytes / double(hw.dram.row_bytes)) : 0.0;
    const double k = double(std::max(active, 1));
    const double collide = 1.0 - std::pow(1.0 - 1.0 / double(d.banks), k - 1.0);
    d.miss = hw.dram.open_page ? own + (1.0 - own) * m_c.mva_row_miss * collide : 1.0;
    d.bank = d.miss * double(hw.dram.tRP + hw.dram.tRCD) * ck.tck / double(d.banks);
    d.dram_delay = double(hw.dram.frontend_latency_ck + hw.dram.CL) * ck.tck;
    d.window = std::max(1.0, std::min(double(std::max(asip.dma_max_outstanding, 1)), n2 / n));
    return d;
}

std::vector<double> QueueingMeshModel::subnetwork_rates(const Demands& d, int cap) const {
    std::vector<MvaStation> st = {{d.port_in, false}, {d.port_out, false}, {d.bus, false}, {d.dram_delay, true}};
    for (int i = 0; i < d.banks; ++i) st.push_back({d.bank, false});
    std::vector<double> r;
    for (const MvaPoint& x : mva_exact(st, std::max(cap, 1))) r.push_back(x.throughput);
    return r;
}

double QueueingMeshModel::loaded_latency(const std::vector<double>& rates, double noc, double think, int customers) {
    const ClosedPoint x = closed_delay_station(noc + think, rates, std::max(customers, 1));
    return noc + x.response;
}

double QueueingMeshModel::core_time(const OpProfile& p, double lat, const tiling::AsipParams& asip,
                                    const MeshMapParams& mesh) const {
    const Clocks ck = clocks_of(asip, mesh);
    const double out = double(std::max(asip.dma_max_outstanding, 1));
    const double setup = double(asip.dma_setup_cycles);
    double t = 0;
    for (const ProfileEntry& e : p.entries) {
        double d = 0;
        if (e.x.transfers) {
            const double n = double(e.x.transfers);
            const double f = double(std::max(e.x.flits_in, e.x.flits_out)) / n;  // per transfer
            d = lat + (n - 1.0) * std::max({1.0, lat / out, m_c.mva_stream_scale * f * ck.flit});
        }
        const double one = setup * double(e.x.dma_ops) + (e.wait ? d : std::max(double(e.compute), d));
        t += one * double(e.count);
    }
    return t;
}

double QueueingMeshModel::core_cycles(const OpProfile& p, const CoreContext& c, const tiling::AsipParams& asip,
                                      const MeshMapParams& mesh) const {
    const MeshHwFigures& hw = mesh.hw;
    if (!hw.valid())
        throw InputError("mapper.mesh_model: the queueing model needs the DRAM and NoC figures of the platform");
    const Demands d = demands(p, c.active, asip, mesh);
    if (d.requests <= 0) return core_time(p, 0.0, asip, mesh);
    const Clocks ck = clocks_of(asip, mesh);
    const std::vector<double> rates = subnetwork_rates(d, hw.dram_if_outstanding);
    // Heads of the request and the response over hops + 1 routers each way, plus the issue cycle.
    const double noc = 2.0 * double(c.hops + 1) * double(hw.hop_cycles) * ck.flit + 1.0;
    const int customers = int(std::lround(d.window)) * std::max(c.active, 1);
    // Fixed point of the think time: a customer's cycle is the core's time / (its requests / w).
    double think = 0, lat = 0, t = 0;
    for (int it = 0; it < 4; ++it) {
        lat = loaded_latency(rates, noc, think, customers);
        t = core_time(p, lat, asip, mesh);
        const double cycle = t * d.window / d.requests;
        think = 0.5 * think + 0.5 * std::max(0.0, cycle - lat);
    }
    return t;
}

double QueueingMeshModel::shared_cycles(const OpProfile& p, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                                        int active) const {
    const MeshHwFigures& hw = mesh.hw;
    if (!hw.valid()) return 0.0;
    const Demands d = demands(p, active, asip, mesh);
    if (d.requests <= 0) return 0.0;
    const std::vector<double> rates = subnetwork_rates(d, hw.dram_if_outstanding);
    return d.requests / rates.back();
}

// ---- phased model ----

double sharing_of(int slices, int k) {
    if (k <= 0) return 1.0;
    if (slices <= 0) return double(k);
    const int per = (slices + k - 1) / k;  // the largest share of a core
    return double(slices) / double(per);
}

std::vector<double> sharing_by_work(const std::vector<double>& work) {
    std::vector<double> out(work.size(), 1.0);
    for (std::size_t i = 0; i < work.size(); ++i) {
        if (work[i] <= 0) continue;
        double served = 0;
        for (double w : work) served += std::min(std::max(w, 0.0), work[i]);
        out[i] = served / work[i];
    }
    return out;
}

MeshCoefficients PhasedMeshModel::with_page_coefficients(MeshCoefficients c) {
    c.ph_turn = c.pg_turn;
    c.ph_port = c.pg_port;
    c.ph_stream = c.pg_stream;
    c.ph_wait = c.pg_wait;
    c.ph_sync = c.pg_sync;
    c.ph_layer_cycles = c.pg_layer_cycles;
    c.ph_bus = c.pg_bus;
    c.ph_tail = c.pg_tail;
    return c;
}

double PhasedMeshModel::activation_price(const MeshHwFigures& hw, const tiling::AsipParams& asip, int active, double n,
                                         double w, double bank_factor) {
    const DramFigures& d = hw.dram;
    // Requests queued per channel: the interface's cap, or all the k cores may keep in flight.
    const double k = double(std::max(active, 1));
    const double q = std::min(double(hw.dram_if_outstanding), k * std::min(double(std::max(asip.dma_max_outstanding, 1)), n)) /
                     double(std::max(1u, d.channels));
    // Banks those requests fall on (uniformly at random), of B per channel.
    const double banks = double(std::max(1u, d.ranks) * std::max(1u, d.banks));
    // Fewer when the active cores' strides put their concurrent bursts on few banks (bank_factor).
    const double b = std::max(1.0, std::min(banks, banks * (1.0 - std::pow(1.0 - 1.0 / banks, std::max(q, 1.0)))) *
                                       std::clamp(bank_factor, 0.0, 1.0));
    // One bank's turn for a conflicting burst (ACT to ACT for a read, ACT to the write's precharge
    // done for a write), shared by b banks; the four-activation window and ACT to ACT of two banks
    // per rank; the burst itself.
    const double cycle = (1.0 - w) * double(d.tRAS + d.tRP) + w * double(d.tRCD + d.CWL + d.burst_cycles + d.tWR + d.tRP);
    const double act_gap = std::max(double(d.tFAW) / 4.0, double(d.tRRD)) / double(std::max(1u, d.ranks));
    const double burst = double(d.burst_cycles);
    return std::max({cycle / b, act_gap, burst}) - burst;
}

double PhasedMeshModel::shared_time(const XferFeatures& x, int active, const tiling::AsipParams& asip,
                                    const MeshMapParams& mesh, double own_act, double bank_factor) const {
    if (!x.transfers) return 0.0;
    const MeshHwFigures& hw = mesh.hw;
    const Clocks ck = clocks_of(asip, mesh);
    const double n = double(x.transfers);
    const double w = double(x.transfers - std::min(x.reads, x.transfers)) / n;
    const double t_w2r = double(hw.dram.CWL + hw.dram.burst_cycles + hw.dram.tWTR) * ck.tck;
    const double cl_cwl = double(hw.dram.CL) - double(hw.dram.CWL);
    const double t_r2w = std::max(0.0, cl_cwl + double(hw.dram.burst_cycles) + 2.0) * ck.tck;
    const double banks = double(std::max(1u, hw.dram.channels) * std::max(1u, hw.dram.ranks) * std::max(1u, hw.dram.banks));
    const double k = double(std::max(active, 1));
    const double bytes = double(x.bursts) * double(hw.dram.burst_bytes) / n;  // per request
    const double own_rows = hw.dram.row_bytes ? std::min(1.0, bytes / double(hw.dram.row_bytes)) : 0.0;
    const double collide = 1.0 - std::pow(1.0 - 1.0 / banks, k - 1.0);
    const double miss = hw.dram.open_page ? own_rows + m_c.ph_conflict * collide : 1.0;
    // DRAM clocks of row changes per request: phased-pages counts the core's own activations
    // (replayed; a share pg_own of them with other cores, whose accesses may have opened the row)
    // and pg_collide of the collisions of k interleaved streams, each at the price of the banks
    // the queued requests keep busy; the other phased models miss x (tRP + tRCD).
    // With a closed page (phased-pages) every request activates its row and precharges it again:
    // one activation per request at the same price (the bank's ACT-to-ACT turn shared by the banks
    // the queued requests keep busy), not a serial tRP + tRCD.
    // With an open page, FCFS serves the oldest request alone: no other stream's row hit goes
    // first and no other bank's row change overlaps, so a request pays its row change, its own
    // (replayed) or a collision of the k interleaved streams, in series.
    const double fcfs_miss = std::min(1.0, (own_act >= 0 ? own_act : own_rows) + collide);
    const double rows = m_pages && !hw.dram.frfcfs && hw.dram.open_page ? fcfs_miss * double(hw.dram.tRP + hw.dram.tRCD)
                        : m_pages && own_act >= 0 && hw.dram.open_page
                            ? (own_act * (k > 1 ? m_c.pg_own : 1.0) + m_c.pg_collide * collide) *
                                  activation_price(hw, asip, active, n, w, bank_factor)
                        : m_pages && !hw.dram.open_page ? activation_price(hw, asip, active, n, w, bank_factor)
                                                        : miss * double(hw.dram.tRP + hw.dram.tRCD);
    const double s_dram = m_c.ph_bus * double(x.bursts) * double(hw.dram.burst_cycles) * ck.tck +
                          n * (m_c.ph_turn * 2.0 * w * (1.0 - w) * 0.5 * (t_w2r + t_r2w) + rows * ck.tck);
    // The interface's port: ph_port NoC cycles per flit it sends (responses, acks: one stream from
    // its terminal) and per flit it takes (requests), or with pg_port_packet (phased-pages) the
    // flits it takes, which reach it over several inputs, at one per NoC cycle plus
    // pg_port_packet x the packet gap (the ejection's output VC allocated again after a tail)
    // per request packet.
    const double taken = m_pages && m_c.pg_port_packet >= 0
                             ? double(x.flits_out) + m_c.pg_port_packet * double(hw.packet_gap) * n
                             : m_c.ph_port * double(x.flits_out);
    const double s_port = std::max(m_c.ph_port * double(x.flits_in), taken) * ck.flit;
    return std::max(s_dram, s_port);
}

double PhasedMeshModel::packet_cycles(const MeshHwFigures& hw, double flits, int hops) {
    // The next head's RC and VA behind the previous tail (g), and on each hop the packet's body
    // reaches a full buffer (floor((F - 1) / B) of them, at most H) the part of g the credit loop
    // does not hide.
    const double waits = hw.buffer_depth > 0 && hw.credit_stall > 0
                             ? std::min(double(std::max(hops, 0)), std::floor((flits - 1.0) / double(hw.buffer_depth)))
                             : 0.0;
    return flits + double(hw.packet_gap) + std::max(0.0, waits) * double(hw.credit_stall);
}

double PhasedMeshModel::unloaded_latency(const XferFeatures& x, int hops, double own_act, const tiling::AsipParams& asip,
                                         const MeshMapParams& mesh) {
    const MeshHwFigures& hw = mesh.hw;
    const Clocks ck = clocks_of(asip, mesh);
    const double noc = 2.0 * double(hops + 1) * double(hw.hop_cycles) * ck.flit;
    const double n = double(std::max<std::uint64_t>(x.transfers, 1));
    const double w = double(x.transfers - std::min(x.reads, x.transfers)) / n;
    // A row activation before the column command: the replayed activations per request (open
    // page), every request with a closed-page policy or without a replay.
    const double act = hw.dram.open_page && own_act >= 0 ? std::clamp(own_act, 0.0, 1.0) : 1.0;
    const double cas = (1.0 - w) * double(hw.dram.CL) + w * double(hw.dram.CWL);
    return noc + (double(hw.dram.frontend_latency_ck) + act * double(hw.dram.tRCD) + cas + double(hw.dram.burst_cycles)) * ck.tck;
}

double PhasedMeshModel::pipelined_row(const ProfileEntry& e, double setups, double l0, double own, double s, int hops,
                                      const tiling::AsipParams& asip, const MeshMapParams& mesh) const {
    const MeshHwFigures& hw = mesh.hw;
    const Clocks ck = clocks_of(asip, mesh);
    const double b = setups + double(e.compute);  // the row's own time: DMA setups + compute
    const std::uint64_t reads = std::min(e.x.reads, e.x.transfers), writes = e.x.transfers - reads;
    if (!reads || !writes) return std::max({b, 0.5 * (b + l0 + own), setups + s});
    // Reads behind the entry's own store's writes: the write-to-read turnaround.
    const double t_w2r = double(hw.dram.CWL + hw.dram.burst_cycles + hw.dram.tWTR) * ck.tck;
    // The streams of the write data (request packets less the read requests' headers) and of
    // the read data (response packets less the acks' headers).
    const std::uint64_t hdr = std::uint64_t(std::max(mesh.packet.header_flits, 0));
    const std::uint64_t ack_flits = mesh.packet.write_ack ? writes * hdr : 0;
    const double f_w = double(e.x.flits_out - std::min(e.x.flits_out, reads * hdr));
    const double f_r = double(e.x.flits_in - std::min(e.x.flits_in, ack_flits));
    const double own_w = m_c.ph_stream * f_w * ck.flit, own_r = m_c.ph_stream * f_r * ck.flit;
    const double race = race_row(b, setups, l0 + own, own_w, t_w2r, s, std::max(own_w, b) + own_w + own_r - own);
    if (!m_engine) return race;
    // The in-order engine: the store's write packets, then the prefetch's read requests on the
    // same VC; beyond O outstanding reads, read O + 1 waits for read 1's response.
    const double w_n = double(writes), r_n = double(reads);
    const double p_w = packet_cycles(hw, f_w / w_n, hops) * ck.flit, p_r = packet_cycles(hw, f_r / r_n, hops) * ck.flit;
    const double out = double(std::max(asip.dma_max_outstanding, 1));
    const double engine = w_n * p_w + (r_n > out ? l0 + t_w2r + p_r + (r_n - out - 1.0) * p_r
                                                 : r_n * packet_cycles(hw, 1.0, hops) * ck.flit);
    return std::max(race, engine);
}

double PhasedMeshModel::race_row(double b, double setups, double l, double own_w, double t_w2r, double s, double full) {
    // The next store's writes are posted from b on and stream for own_w; the read can be served
    // from own_w + t_w2r on: the share phi of the writes that come before that overtakes it.
    const double phi = own_w > 0 ? std::clamp((own_w + t_w2r - b) / own_w, 0.0, 1.0) : 0.0;
    return std::max({b, 0.5 * (b + l + t_w2r + phi * full), setups + s});
}

double PhasedMeshModel::core_cycles(const OpProfile& p, const CoreContext& c, const tiling::AsipParams& asip,
                                    const MeshMapParams& mesh) const {
    const MeshHwFigures& hw = mesh.hw;
    if (!hw.valid())
        throw InputError("mapper.mesh_model: the phased model needs the DRAM and NoC figures of the platform");
    const Clocks ck = clocks_of(asip, mesh);
    const double dram_lat = double(hw.dram.frontend_latency_ck + hw.dram.tRCD + hw.dram.CL + hw.dram.burst_cycles) * ck.tck;
    const double l0_miss = 2.0 * double(c.hops + 1) * double(hw.hop_cycles) * ck.flit + dram_lat;
    const double out = double(std::max(asip.dma_max_outstanding, 1));
    const double setup = double(asip.dma_setup_cycles);
    const double keff = c.sharing > 0 ? c.sharing : double(std::max(c.active, 1));
    const double sync = 1.0 + m_c.ph_sync * std::max(0.0, keff - 1.0);
    const double own_act = m_pages && p.requests > 0 ? p.activations / p.requests : -1.0;
    // phased-pages: of the tail of rows that compute bounds, the share the number of cores brings
    // (a ramp to all of it at pg_tail_full cores; without pg_tail_full, (k - pg_tail_from) / (k - 1),
    // all of it with pg_tail_from 1); rows bound by the shared side count in full (bound_tail).
    const double tail_share =
        !m_pages || keff <= 1.0 ? 1.0
        : m_c.pg_tail_full > 0  ? std::clamp((keff - m_c.pg_tail_from) / (m_c.pg_tail_full - m_c.pg_tail_from), 0.0, 1.0)
                                : std::clamp((keff - m_c.pg_tail_from) / (keff - 1.0), 0.0, 1.0);
    // phased-pages: the share of the other cores' shared-side time a row's round trip waits behind:
    // of one other core's row at most (docs/mesh.md, Calibration, "the wait of a latency-bound row
    // behind one other core"). With more cores the round of their rows, sync s, bounds such a row,
    // and the wait grown with k - 1 over-charged short layers on 4-14 cores.
    const double queue_share = m_pages ? m_c.pg_queue * std::clamp(keff - 1.0, 0.0, 1.0) : 0.0;
    double t = 0, tail = 0, bound_tail = 0;
    for (const ProfileEntry& e : p.entries) {
        double d = 0;
        if (e.x.transfers) {
            const double n = double(e.x.transfers);
            const double f = double(std::max(e.x.flits_in, e.x.flits_out));
            const double l0 = m_pages ? unloaded_latency(e.x, c.hops, own_act, asip, mesh) : l0_miss;
            const double own = std::max({n, n * l0 / out, m_c.ph_stream * f * ck.flit});
            const double s = shared_time(e.x, c.active, asip, mesh, own_act, p.bank_factor);
            if (m_pipelined && !e.wait && c.active == 1) {
                // One core: two prefetches in flight (the replay contract), a row costs half its
                // own time + latency on average; see pipelined_row.
                const double setups = setup * double(e.x.dma_ops);
                t += pipelined_row(e, setups, l0, own, sync * s, c.hops, asip, mesh) * double(e.count);
                continue;
            }
            d = std::max((e.wait ? m_c.ph_wait : 1.0) * l0 + own + queue_share * s, sync * s);
            // The other cores' traffic of this row that its compute hides in lockstep.
            if (!e.wait) {
                const double hid = double(e.count) * std::min((sync - 1.0) * s, std::max(0.0, double(e.compute) - s));
                (m_pages && sync * s >= double(e.compute) ? bound_tail : tail) += hid;
            }
        }
        const double one = setup * double(e.x.dma_ops) + (e.wait ? d : std::max(double(e.compute), d));
        t += one * double(e.count);
    }
    return t + m_c.ph_tail * (tail_share * tail + bound_tail);
}

namespace {

// NoC cycles from a header-only sync packet's creation until its receiver sees it, over `hops`.
double sync_flight(int hops, const MeshMapParams& mesh) {
    const MeshHwFigures& hw = mesh.hw;
    const double f = double(std::max(mesh.packet.header_flits, 1));
    return double(hw.link_cycles) + double(std::max(hops, 0) + 1) * double(std::max(hw.hop_cycles - 1, 0)) + f;
}

}  // namespace

double PhasedMeshModel::start_sync(int position, int master_hops, const tiling::AsipParams& asip,
                                   const MeshMapParams& mesh) {
    const Clocks ck = clocks_of(asip, mesh);
    const double f = double(std::max(mesh.packet.header_flits, 1));
    const double spacing = std::max(1.0, packet_cycles(mesh.hw, f, 0) * ck.flit);
    // The next core clock edge (1e-9: an arrival on an edge, computed in floating point, is that edge).
    return std::ceil(double(std::max(position, 0)) * spacing + sync_flight(master_hops, mesh) * ck.flit - 1e-9);
}

double PhasedMeshModel::done_sync(int master_hops, const tiling::AsipParams& asip, const MeshMapParams& mesh) {
    return sync_flight(master_hops, mesh) * clocks_of(asip, mesh).flit;
}

double PhasedMeshModel::sync_cycles(int position, int master_hops, const tiling::AsipParams& asip,
                                    const MeshMapParams& mesh) const {
    if (!m_pages || !mesh.hw.valid()) return 0.0;
    return start_sync(position, master_hops, asip, mesh) + done_sync(master_hops, asip, mesh);
}

double PhasedMeshModel::shared_cycles(const OpProfile& p, const tiling::AsipParams& asip, const MeshMapParams& mesh,
                                      int active) const {
    if (!mesh.hw.valid()) return 0.0;
    const double own_act = m_pages && p.requests > 0 ? p.activations / p.requests : -1.0;
    double t = 0;
    for (const ProfileEntry& e : p.entries) t += shared_time(e.x, active, asip, mesh, own_act, p.bank_factor) * double(e.count);
    return t;
}

namespace {

using Factory = std::function<std::shared_ptr<const MeshTimeModel>(const MeshCoefficients&)>;

// The registry (STYLE rule 4): one table, in the order the names are listed.
const std::vector<std::pair<std::string, Factory>>& registry() {
    static const std::vector<std::pair<std::string, Factory>> r = {
        {"calibrated", [](const MeshCoefficients& c) { return std::make_shared<CalibratedMeshModel>(c); }},
        {"paper", [](const MeshCoefficients&) { return std::make_shared<PaperMeshModel>(); }},
        {"phased", [](const MeshCoefficients& c) { return std::make_shared<PhasedMeshModel>(c); }},
        {"phased-engine", [](const MeshCoefficients& c) { return std::make_shared<PhasedMeshModel>(c, true, true, true); }},
        {"phased-pages", [](const MeshCoefficients& c) { return std::make_shared<PhasedMeshModel>(c, true, true, true, true); }},
        {"phased-serial", [](const MeshCoefficients& c) { return std::make_shared<PhasedMeshModel>(c, true, false); }},
        {"phased-slices", [](const MeshCoefficients& c) { return std::make_shared<PhasedMeshModel>(c, false, false); }},
        {"queueing", [](const MeshCoefficients& c) { return std::make_shared<QueueingMeshModel>(c); }},
    };
    return r;
}

}  // namespace

std::vector<std::string> mesh_model_names() {
    std::vector<std::string> n;
    for (const auto& e : registry()) n.push_back(e.first);
    return n;
}

std::shared_ptr<const MeshTimeModel> make_mesh_model(const std::string& name, const MeshCoefficients& coef,
                                                     const std::string& what) {
    for (const auto& e : registry())
        if (e.first == name) return e.second(coef);
    std::string known;
    for (const auto& e : registry()) known += (known.empty() ? "" : ", ") + e.first;
    throw InputError(what + ": unknown cost model \"" + name + "\" (known: " + known + ")");
}

}  // namespace vp::mapper::waving
