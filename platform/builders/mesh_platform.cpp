#include "platform/builders/mesh_platform.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>
#include <string>

#include "mapper/common/errors.h"
#include "mapper/common/json_text.h"
#include "mapper/waving/mapping_report.h"
#include "mapper/waving/waving_mapper.h"
#include "models/noc/noc_invariants.h"
#include "platform/config/mesh_figures.h"
#include "platform/refine/child_runner.h"
#include "platform/run/dram_fit.h"

namespace vp::platform {

namespace wv = mapper::waving;
namespace tl = mapper::tiling;

noc::NocParams noc_params_for(const config::PlatformSpec& spec) {
    noc::NocParams np = spec.noc;
    np.width = std::uint32_t(std::max(spec.mesh.width, 0));
    np.height = std::uint32_t(std::max(spec.mesh.height, 0));
    np.flit_width_bits = std::uint32_t(std::max(spec.mesh.packet.flit_bits, 0));
    np.header_flits = std::uint32_t(std::max(spec.mesh.packet.header_flits, 0));
    np.validate("noc");
    np.validate_message_classes("noc");
    return np;
}

std::vector<tl::DramLayout> layout_tensors(const wv::NetworkMapping& m, int word_bytes, std::uint64_t dram_bytes) {
    std::vector<tl::DramLayout> out(m.layers.size());
    std::uint64_t next = 0;
    for (std::size_t i = 0; i < m.layers.size(); ++i) {
        const wv::LayerMapping& l = m.layers[i];
        if (!l.mapped) continue;
        // run::check_tensors_fit_dram refused every layer whose tensors exceed the DRAM before the mapping.
        const run::MeshTensorBytes b = run::mesh_tensor_bytes(l.shape, std::uint64_t(word_bytes));
        if (b.total() > dram_bytes)
            throw InputError("layer \"" + l.name + "\": its tensors (" + std::to_string(std::uint64_t(b.total())) +
                             " bytes) do not fit the DRAM (" + std::to_string(dram_bytes) + " bytes; see dram.*)");
        const std::uint64_t ifm = std::uint64_t(b.ifm), wts = std::uint64_t(b.weights), need = std::uint64_t(b.total());
        if (next + need > dram_bytes) next = 0;  // ASSUMPTION: reuse addresses (no data is computed)
        out[i].ifmap_base = next;
        out[i].weight_base = next + ifm;
        out[i].ofmap_base = next + ifm + wts;
        next += need;
    }
    return out;
}

struct MeshPlatform::LayerStats {
    LayerStats(stats::Group& parent, const std::string& name)
        : group(parent, "layer[" + name + "]"),
          k(group, "active_cores", "cores the mapper activated (waving k)", "cores"),
          cycles(group, "cycles", "simulated core cycles, start sync to the last done sync", "cycles"),
          est_cycles(group, "est_cycles", "mapper estimate (waving LayerMapping::est_cycles)", "cycles"),
          ratio(group, "sim_over_est", "simulated / estimated cycles", "ratio"),
          flits(group, "flits", "flits of the packets of the layer's DMA traffic (sync packets excluded)", "flits"),
          est_flits(group, "est_flits", "flits of the mapper's cost function (Eq. 23, second term)", "flits"),
          flit_hops(group, "flit_hops", "router-to-router link traversals of the layer's flits", "flit hops"),
          macs(group, "macs", "MACs simulated", "MAC"),
          mac_util(group, "mac_utilisation", "useful MACs / (vALU cycles x P_ox x P_of)", "ratio"),
          stall_cycles(group, "stall_cycles", "core cycles waiting for DMA, summed over active cores", "cycles"),
          dram_bytes(group, "dram_bytes", "bytes loaded + stored by the cores", "bytes"),
          sram_words(group, "sram_words", "SRAM words read + written", "words"),
          energy(group, "energy_pj", "energy model on the simulated counts and runtime", "pJ"),
          est_energy(group, "est_energy_pj", "mapper's energy estimate", "pJ") {}
    stats::Group group;
    stats::Scalar k, cycles, est_cycles, ratio, flits, est_flits, flit_hops, macs, mac_util, stall_cycles, dram_bytes,
        sram_words, energy, est_energy;
};

MeshPlatform::MeshPlatform(RunContext& ctx)
    : Platform(ctx.spec.sim.check_tlm), m_ctx(ctx), m_mesh_stats(ctx.stats, "mesh"), m_noc_group(ctx.stats, "noc"),
      m_total_cycles(m_mesh_stats, "cycles", "simulated core cycles of the whole network", "cycles"),
      m_total_est_cycles(m_mesh_stats, "est_cycles", "sum of the mapper's per-layer estimates", "cycles"),
      m_total_energy_pj(m_mesh_stats, "energy_pj", "energy model on the simulated counts", "pJ"),
      m_total_est_energy_pj(m_mesh_stats, "est_energy_pj", "mapper's energy estimate", "pJ") {
    const auto& spec = ctx.spec;
    const auto& wl = ctx.workload;
    if (wl.kind != workload::WorkloadKind::Network)
        throw InputError(wl.path + ": the mesh platform (" + spec.source + ") runs network workloads");
    m_np = noc_params_for(spec);
    const wv::MapperOptions opt = refine::mesh_mapper_options(spec);
    try {  // the network has a conv or fc layer (run::check_run_inputs)
        m_map = wv::map_network(wl.network, spec.core, spec.mesh, spec.energy, opt);
    } catch (const InputError& e) {  // layer errors do not name the file
        throw InputError(wl.path + ": " + e.what());
    }
    if (spec.mapper.refine > 0) m_refine = refine::refine_mesh(m_map, wl, spec, refine::sibling_program("vp-run"));
    for (std::size_t i = 0; i < m_map.layers.size(); ++i)
        if (m_map.layers[i].mapped) m_mapped.push_back(i);
    for (const auto& l : wl.network.layers)
        if (l.kind == mapper::LayerKind::Conv || l.kind == mapper::LayerKind::FullyConnected) m_workload_macs += l.macs();
    m_layouts = layout_tensors(m_map, spec.core.word_bytes(), spec.dram.capacity_bytes());

    // NoC, DRAM controller and the DRAM interface node(s), all sharing one controller.
    const unsigned W = m_np.width;
    auto node_of = [W](const wv::MeshNode& n) { return unsigned(n.y) * W + unsigned(n.x); };
    m_noc = std::make_unique<noc::NocSystem>(
        "noc", m_np, sc_core::sc_time::from_value(std::uint64_t(std::llround(1e6 / spec.mesh.noc_mhz))));
    m_dram = std::make_unique<dram::DramController>("dram", spec.dram, ctx.stats, &ctx.tracer);
    for (std::size_t d = 0; d < spec.mesh.dram_ifs.size(); ++d) {
        const auto& n = spec.mesh.dram_ifs[d];
        m_difs.push_back(std::make_unique<noc::DramInterface>(
            ("dram_if_" + std::to_string(n.x) + "_" + std::to_string(n.y)).c_str(), *m_noc, node_of(n),
            config::dram_if_outstanding(spec)));
        m_tlm.bind(m_difs.back()->socket, m_dram->socket, std::string("tlmcheck_") + m_difs.back()->basename());
    }

    // Cores: each gets the runs of the layers it is active in.
    m_core_nodes = spec.mesh.resolved_cores();
    const unsigned n_layers = unsigned(m_mapped.size());
    std::vector<std::vector<asip::CoreLayerWork>> work(m_core_nodes.size());
    std::vector<asip::MasterLayer> master_layers(n_layers);
    for (unsigned li = 0; li < n_layers; ++li) {
        const wv::LayerMapping& l = m_map.layers[m_mapped[li]];
        for (const wv::CoreWork& w : l.cores) {
            asip::CoreLayerWork cw;
            cw.layer = li;
            cw.shape = &l.shape;
            cw.layout = m_layouts[m_mapped[li]];
            cw.runs = w.runs;
            cw.tilings = w.run_tilings;
            work[std::size_t(w.core)].push_back(std::move(cw));
            master_layers[li].core_nodes.push_back(node_of(w.node));
        }
    }
    const sc_core::sc_time core_period = sc_core::sc_time::from_value(std::uint64_t(std::llround(1e6 / spec.core.core_mhz)));
    trace::Tracer* tracer = &ctx.tracer;
    // Every node's packets go through its network interface (posted writes when writes are not
    // acknowledged); the master's start syncs too.
    noc::NiParams nip;
    nip.posted_writes = !spec.mesh.packet.write_ack;
    for (std::size_t c = 0; c < m_core_nodes.size(); ++c) {
        const auto& n = m_core_nodes[c];
        const std::string xy = std::to_string(n.x) + "_" + std::to_string(n.y);
        noc::AddressMap amap;
        amap.default_node = node_of(spec.mesh.dram_ifs[std::size_t(wv::nearest_dram_if(spec.mesh, n))]);
        m_nis.push_back(std::make_unique<noc::NetworkInterface>(("ni_" + xy).c_str(), *m_noc, node_of(n), core_period,
                                                                amap, nip));
        m_cores.push_back(std::make_unique<asip::AsipCore>(
            ("core_" + xy).c_str(), spec.core, spec.mesh.packet, node_of(spec.mesh.master), std::move(work[c]),
            n_layers, ctx.pool, m_mesh_stats, "core[" + std::to_string(n.x) + "][" + std::to_string(n.y) + "]",
            tracer));
        m_tlm.bind(m_cores.back()->socket, m_nis.back()->socket, "tlmcheck_core_" + xy);
        m_nis.back()->set_sync_sink(m_cores.back().get());
    }
    noc::AddressMap master_map;
    master_map.default_node = node_of(spec.mesh.dram_ifs[std::size_t(wv::nearest_dram_if(spec.mesh, spec.mesh.master))]);
    m_master_ni = std::make_unique<noc::NetworkInterface>("ni_master", *m_noc, node_of(spec.mesh.master), core_period,
                                                          master_map, nip);
    m_master = std::make_unique<asip::MasterCore>("mesh", core_period, std::move(master_layers), ctx.ctrl, ctx.pool,
                                                  tracer);
    m_tlm.bind(m_master->socket, m_master_ni->socket, "tlmcheck_master");
    m_master_ni->set_sync_sink(m_master.get());
    m_master->set_probe([this] {
        const auto& t = m_noc->network().totals();
        return asip::LayerProbe{t.packets_created, t.flits_created, t.term.flits_ejected, router_link_flits()};
    });
    m_master->set_quiescent([this] { return quiescent(); });
    m_noc_stats = std::make_unique<noc::NocStats>(m_noc_group, m_noc->network());
    m_noc_trace = std::make_unique<noc::NocTrace>(ctx.tracer, "noc", m_noc->network(), m_noc->period().value());
    for (std::size_t li = 0; li < m_mapped.size(); ++li)
        m_layer_stats.emplace_back(m_mesh_stats, m_map.layers[m_mapped[li]].name);
}

MeshPlatform::~MeshPlatform() = default;

// Flits sent on router-to-router links (every output port except the local ejection port).
std::uint64_t MeshPlatform::router_link_flits() const {
    std::uint64_t s = 0;
    const noc::Network& net = m_noc->network();
    for (unsigned r = 0; r < net.num_nodes(); ++r) {
        const auto& c = net.router(r).counters();
        for (unsigned p = 0; p < noc::kNumPorts; ++p)
            if (p != noc::kLocal) s += c.flits_out[p];
    }
    return s;
}

// Nothing left in flight anywhere (posted writes served, every posted completion delivered).
bool MeshPlatform::quiescent() const {
    if (m_noc->network().packets_alive() != 0 || m_dram->in_flight() != 0) return false;
    for (const auto& d : m_difs)
        if (d->outstanding() != 0) return false;
    for (const auto& ni : m_nis)
        if (ni->in_flight() != 0) return false;
    return m_master_ni->in_flight() == 0;
}

std::uint64_t MeshPlatform::sync_flits() const { return noc::packet_flits(0, m_np.flit_width_bits, m_np.header_flits); }

std::vector<MeshPlatform::LayerResult> MeshPlatform::results() const {
    std::vector<LayerResult> out;
    const auto& recs = m_master->records();
    const double core_ps = 1e6 / m_ctx.spec.core.core_mhz;
    const std::uint64_t fs = sync_flits();
    for (std::size_t li = 0; li < m_mapped.size(); ++li) {
        const auto& r = recs[li];
        const wv::LayerMapping& l = m_map.layers[m_mapped[li]];
        LayerResult x;
        x.map_index = m_mapped[li];
        x.sim_cycles = double((r.end - r.start).value()) / core_ps;
        // Every packet of the layer (DMA requests and responses, the start and done syncs) is
        // created between its start and its end; with acknowledged writes every one is also
        // drained in that window (with posted writes the last ones may arrive later).
        x.sim_flits = r.at_end.flits_created - r.at_start.flits_created - r.syncs * fs;
        x.sim_flits_carried = r.at_end.flits_ejected - r.at_start.flits_ejected - r.syncs * fs;
        x.sim_packets = r.at_end.packets_created - r.at_start.packets_created - r.syncs;
        // Each sync packet crosses hops(master, core) links (every routing is minimal).
        std::uint64_t sync_hops = 0;
        for (const wv::CoreWork& w : l.cores) sync_hops += 2ull * fs * std::uint64_t(wv::hops(w.node, m_ctx.spec.mesh.master));
        x.sim_flit_hops = r.at_end.link_flits - r.at_start.link_flits - sync_hops;
        for (const auto& core : m_cores) {
            const asip::CoreLayerCounts& c = core->layer_counts()[li];
            x.counts.macs += c.macs;
            x.counts.lane_cycles += c.lane_cycles;
            x.counts.comp_cycles += c.comp_cycles;
            x.counts.pfetch_cycles += c.pfetch_cycles;
            x.counts.setup_cycles += c.setup_cycles;
            x.counts.stall_cycles += c.stall_cycles;
            x.counts.sram_reads += c.sram_reads;
            x.counts.sram_writes += c.sram_writes;
            x.counts.dram_read_bytes += c.dram_read_bytes;
            x.counts.dram_write_bytes += c.dram_write_bytes;
            x.counts.transfers += c.transfers;
            x.counts.cycles = std::max(x.counts.cycles, c.cycles);
        }
        wv::EnergyInputs in;
        in.macs = x.counts.macs;
        in.sram_words = x.counts.sram_reads + x.counts.sram_writes;
        in.dram_bytes = x.counts.dram_read_bytes + x.counts.dram_write_bytes;
        in.flit_hops = x.sim_flit_hops;
        in.active_cores = l.k;
        in.idle_cores = int(m_core_nodes.size()) - l.k;
        in.runtime_ns = (r.end - r.start).to_seconds() * 1e9;
        x.energy = wv::estimate_energy(m_ctx.spec.energy, in);
        out.push_back(x);
    }
    return out;
}

void MeshPlatform::finish() {
    const sc_core::sc_time end = m_ctx.ctrl.end_time();
    m_dram->finish(end);
    for (auto& c : m_cores) c->finish(end);
    m_noc_stats->update();
    if (m_master->layers_finished() != m_mapped.size()) return;  // check_invariants reports it
    double cyc = 0, est = 0, e = 0, ee = 0;
    const auto res = results();
    for (std::size_t li = 0; li < res.size(); ++li) {
        const LayerResult& x = res[li];
        const wv::LayerMapping& l = m_map.layers[x.map_index];
        LayerStats& s = m_layer_stats[li];
        s.k.set(l.k);
        s.cycles.set(x.sim_cycles);
        s.est_cycles.set(l.est_cycles);
        s.ratio.set(l.est_cycles > 0 ? x.sim_cycles / l.est_cycles : 0.0);
        s.flits.set(double(x.sim_flits));
        s.est_flits.set(double(l.flits));
        s.flit_hops.set(double(x.sim_flit_hops));
        s.macs.set(double(x.counts.macs));
        s.mac_util.set(x.counts.lane_cycles ? double(x.counts.macs) / double(x.counts.lane_cycles) : 0.0);
        s.stall_cycles.set(double(x.counts.stall_cycles));
        s.dram_bytes.set(double(x.counts.dram_read_bytes + x.counts.dram_write_bytes));
        s.sram_words.set(double(x.counts.sram_reads + x.counts.sram_writes));
        s.energy.set(x.energy.total_pj());
        s.est_energy.set(l.energy.total_pj());
        cyc += x.sim_cycles;
        est += l.est_cycles;
        e += x.energy.total_pj();
        ee += l.energy.total_pj();
    }
    m_total_cycles.set(cyc);
    m_total_est_cycles.set(est);
    m_total_energy_pj.set(e);
    m_total_est_energy_pj.set(ee);
}

void MeshPlatform::check_invariants() const {
    m_noc->check();  // a deadlock (watchdog) is reported as such
    InvariantCheck chk;
    chk.set_fault(m_fault);
    collect_invariants(chk);
    chk.throw_if_broken();
}

// Every conservation law that holds by design: per
// layer against the mapper's figures (MACs, packets and flits of Eq. 23, flit hops, DRAM bytes),
// and for the run: MACs of the workload, packets per type, bytes at every stage from the cores to
// the DRAM, the NoC's flit conservation, and nothing left in flight.
void MeshPlatform::collect_invariants(InvariantCheck& chk) const {
    const std::string run = "run";
    const bool acked = m_ctx.spec.mesh.packet.write_ack;
    chk.equal("layers finished", run, m_mapped.size(), m_master->layers_finished());
    if (m_master->layers_finished() != m_mapped.size()) return;  // the per-layer figures are incomplete

    // Per layer.
    std::uint64_t mapped_macs = 0, map_hops = 0, sync_hops = 0;
    const auto res = results();
    for (const LayerResult& x : res) {
        const wv::LayerMapping& l = m_map.layers[x.map_index];
        const std::string scope = "layer " + l.name;
        mapped_macs += l.shape.macs();
        map_hops += l.flit_hops;
        for (const wv::CoreWork& w : l.cores)
            sync_hops += 2ull * sync_flits() * std::uint64_t(wv::hops(w.node, m_ctx.spec.mesh.master));
        chk.equal("MACs simulated = MACs of the layer", scope, l.shape.macs(), x.counts.macs);
        chk.equal("NoC packets of the layer = packets counted by the mapper", scope, l.packets, x.sim_packets);
        chk.equal("NoC flits of the layer = flits counted by the mapper (Eq. 23)", scope, l.flits, x.sim_flits);
        chk.equal("DRAM bytes moved by the cores = DRAM bytes counted by the mapper", scope, l.dram_bytes,
                  x.counts.dram_read_bytes + x.counts.dram_write_bytes);
        if (acked) {  // posted writes may still travel after the layer has ended
            chk.equal("flits carried during the layer = flits counted by the mapper", scope, l.flits,
                      x.sim_flits_carried);
            chk.equal("flit hops during the layer = mapper's flits x hops", scope, l.flit_hops, x.sim_flit_hops);
        }
    }
    chk.equal("MACs of the mapped layers = conv/fc MACs of the workload", run, m_workload_macs, mapped_macs);
    chk.equal("router-to-router flit hops = mapper's flits x hops + sync flits x hops", run, map_hops + sync_hops,
              router_link_flits());

    // Cores, packets per type, bytes at every stage.
    std::uint64_t macs = 0, core_bytes = 0, transfers = 0;
    for (const auto& c : m_cores) {
        macs += c->macs();
        chk.equal("layers run by the core", c->name(), c->layers_assigned(), c->layers_done());
        chk.none_left("DMA transfers left in flight", c->name(), c->dma_in_flight());
        chk.none_left("done syncs left in flight", c->name(), c->syncs_in_flight());
        for (const auto& lc : c->layer_counts()) {
            core_bytes += lc.dram_read_bytes + lc.dram_write_bytes;
            transfers += lc.transfers;
        }
    }
    chk.equal("MACs simulated = MACs of the workload", run, m_workload_macs, macs);
    const noc::NetworkTotals& t = m_noc->network().totals();
    auto n = [&t](noc::PacketType k) { return t.packets_by_type[unsigned(k)]; };
    using PT = noc::PacketType;
    chk.equal("request packets = DMA transfers of the cores", run, transfers,
              n(PT::kReadRequest) + n(PT::kWriteRequest) + n(PT::kPostedWrite));
    chk.equal("read responses = read requests", run, n(PT::kReadRequest), n(PT::kReadResponse));
    chk.equal("write acks = acknowledged write requests", run, n(PT::kWriteRequest), n(PT::kWriteAck));
    if (acked) chk.none_left("posted writes (mesh.packet.write_ack: true)", run, n(PT::kPostedWrite));
    else chk.none_left("acknowledged writes (mesh.packet.write_ack: false)", run, n(PT::kWriteRequest));
    std::uint64_t syncs = 0, dif_bytes = 0, dif_posted = 0;
    for (const auto& r : m_master->records()) syncs += r.syncs;
    chk.equal("sync packets = 2 x active cores per layer", run, syncs, n(PT::kSync));
    for (const auto& d : m_difs) {
        dif_bytes += d->bytes_read() + d->bytes_written();
        dif_posted += d->posted_writes();
        chk.none_left("requests left outstanding", d->name(), d->outstanding());
    }
    chk.equal("posted writes served = posted writes sent", run, n(PT::kPostedWrite), dif_posted);
    chk.equal("bytes through the DRAM interfaces = bytes requested by the cores", run, core_bytes, dif_bytes);
    chk.equal("bytes requested at the DRAM controller = bytes requested by the cores", run, core_bytes,
              m_dram->bytes_requested());
    chk.equal("bytes served by the DRAM = bytes requested at the DRAM controller", run, m_dram->bytes_requested(),
              m_dram->bytes_served());
    chk.none_left("DRAM transactions left in flight", "dram", m_dram->in_flight());
    for (const auto& ni : m_nis) chk.none_left("transactions left in flight", ni->name(), ni->in_flight());
    chk.none_left("transactions left in flight", m_master_ni->name(), m_master_ni->in_flight());
    chk.none_left("start syncs left in flight", m_master->name(), m_master->syncs_in_flight());
    noc::check_network(m_noc->network(), chk, true);
}

refine::Trust MeshPlatform::trust() const {
    std::vector<double> est, sim;
    std::vector<std::string> names;
    for (const auto& x : results()) {
        est.push_back(m_map.layers[x.map_index].est_cycles);
        sim.push_back(x.sim_cycles);
        names.push_back(m_map.layers[x.map_index].name);
    }
    // Spearman over the simulated candidates: the refinement's, else the layers themselves.
    if (m_refine) return refine::trust_of(est, sim, m_refine->cand_est, m_refine->cand_sim, names);
    return refine::trust_of(est, sim, est, sim, names);
}

void MeshPlatform::summary(std::ostream& os) const {
    const auto res = results();
    std::vector<double> ratios;
    double cyc = 0, est = 0, e = 0;
    std::uint64_t flits = 0, bytes = 0;
    for (const auto& x : res) {
        const wv::LayerMapping& l = m_map.layers[x.map_index];
        ratios.push_back(l.est_cycles > 0 ? x.sim_cycles / l.est_cycles : 0.0);
        cyc += x.sim_cycles;
        est += l.est_cycles;
        e += x.energy.total_pj();
        flits += x.sim_flits;
        bytes += x.counts.dram_read_bytes + x.counts.dram_write_bytes;
    }
    std::vector<double> sorted = ratios;
    std::sort(sorted.begin(), sorted.end());
    const auto& spec = m_ctx.spec;
    os << std::fixed << std::setprecision(0);
    os << "  mesh           " << spec.mesh.width << "x" << spec.mesh.height << ", " << m_core_nodes.size()
       << " cores, " << res.size() << " layers, " << mapper::tiling::to_string(m_map.objective) << ", "
       << wv::to_string(m_map.mode) << "\n";
    os << "  cycles         " << cyc << " simulated, " << est << " estimated (core clock " << spec.core.core_mhz
       << " MHz)\n";
    os << std::setprecision(3) << "  sim/est        median " << sorted[sorted.size() / 2] << ", range "
       << sorted.front() << " .. " << sorted.back() << "\n";
    os << "  active cores   ";
    for (std::size_t i = 0; i < res.size(); ++i) os << (i ? " " : "") << m_map.layers[res[i].map_index].k;
    os << "\n";
    os << std::setprecision(2) << "  DRAM           " << double(bytes) * 1e-6 << " MB, NoC " << flits
       << " flits (mapper: " << m_map.total_flits() << ")\n";
    dram_timing_summary(os, m_ctx.stats);
    os << "  energy         " << e * 1e-6 << " uJ simulated counts, " << m_map.total_energy_pj() * 1e-6
       << " uJ estimated\n";
    const refine::Trust tr = trust();
    os << std::setprecision(1) << "  trust          " << m_map.model << " time model"
       << calibration_note(m_ctx.spec) << "; |sim/est - 1| over " << tr.layers
       << " layers: median " << 100 * tr.median_abs_err << " %, worst " << tr.worst_text()
       << "; Spearman rho over " << tr.candidates << (m_refine ? " refinement candidates " : " layers ")
       << std::setprecision(3) << tr.rho_text() << "\n";
    if (!m_refine) {
        if (const std::string nt = wv::near_tie_text(m_map); !nt.empty()) os << "  near ties      " << nt;
    } else {
        os << "  refined        " << m_refine->k
           << " (T, k) candidates per distinct shape simulated on their own; whole network " << std::setprecision(0)
           << m_refine->network.value("refined_cycles", 0.0) << " vs unrefined "
           << m_refine->network.value("unrefined_cycles", 0.0) << " cycles, kept "
           << m_refine->network.value("kept", std::string("?")) << "\n";
    }
}

std::vector<std::string> MeshPlatform::layer_names() const {
    std::vector<std::string> n;
    for (std::size_t i : m_mapped) n.push_back(m_map.layers[i].name);
    return n;
}

double MeshPlatform::estimated_time_ps() const {
    double cycles = 0;
    for (std::size_t li : m_mapped) cycles += m_map.layers[li].est_cycles;
    return cycles * config::clock_periods_ps(m_ctx.spec).at("core");
}

nlohmann::json MeshPlatform::layer_report() const {
    nlohmann::json a = nlohmann::json::array();
    if (m_master->layers_finished() != m_mapped.size()) return a;
    for (const auto& x : results()) {
        const wv::LayerMapping& l = m_map.layers[x.map_index];
        a.push_back({{"name", l.name},
                     {"est_cycles", l.est_cycles},
                     {"sim_cycles", x.sim_cycles},
                     {"cycle_clock", "core"},
                     {"macs", x.counts.macs},
                     {"active_cores", l.k},
                     {"flits", x.sim_flits},
                     {"est_flits", l.flits}});
    }
    return a;
}

nlohmann::json MeshPlatform::node_roles() const {
    nlohmann::json r = nlohmann::json::object();
    auto key = [](const wv::MeshNode& n) { return "router[" + std::to_string(n.x) + "][" + std::to_string(n.y) + "]"; };
    for (const auto& n : m_core_nodes) r[key(n)] = "core";
    r[key(m_ctx.spec.mesh.master)] = "master";
    for (const auto& n : m_ctx.spec.mesh.dram_ifs) r[key(n)] = "DRAM interface";
    return r;
}

double MeshPlatform::peak_macs_per_s() const {
    const auto& c = m_ctx.spec.core;
    return double(m_core_nodes.size()) * c.p_ox * c.p_of * c.core_mhz * 1e6;
}

void MeshPlatform::write_outputs(const run::OutputDir& out) const {
    nlohmann::json j = wv::to_json(m_map);
    const auto res = results();
    for (const auto& x : res) {
        const wv::LayerMapping& l = m_map.layers[x.map_index];
        j["layers"][x.map_index]["simulation"] = {
            {"cycles", x.sim_cycles},
            {"sim_over_est", l.est_cycles > 0 ? x.sim_cycles / l.est_cycles : 0.0},
            {"flits", x.sim_flits},
            {"flits_sim_over_est", l.flits ? double(x.sim_flits) / double(l.flits) : 0.0},
            {"flit_hops", x.sim_flit_hops},
            {"macs", x.counts.macs},
            {"mac_utilisation", x.counts.lane_cycles ? double(x.counts.macs) / double(x.counts.lane_cycles) : 0.0},
            {"stall_cycles", x.counts.stall_cycles},
            {"dram_bytes", x.counts.dram_read_bytes + x.counts.dram_write_bytes},
            {"energy_pj", {{"mac", x.energy.mac_pj}, {"sram", x.energy.sram_pj}, {"dram", x.energy.dram_pj},
                           {"noc", x.energy.noc_pj}, {"static", x.energy.static_pj}, {"total", x.energy.total_pj()}}}};
    }
    if (m_refine) {
        for (std::size_t i = 0; i < m_map.layers.size(); ++i)
            if (!m_refine->per_layer[i].is_null()) j["layers"][i]["refine"] = m_refine->per_layer[i];
        j["refine"] = m_refine->k;
        j["refine_network"] = m_refine->network;
    }
    j["trust"] = trust().to_json();
    out.write("mapping.json", json_output_text(j, 2) + "\n");
}

}  // namespace vp::platform
