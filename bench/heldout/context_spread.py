#!/usr/bin/env python3
"""How much a layer's simulated time depends on the layer run before it (nmp and mesh).

For each selected layer of bench/heldout/layers.csv (the rows of the config's platform, named
by the config file: nmp, mesh-4x4, mesh-8x8, whose |sim/est - 1| is above --above percent, and
--control rows drawn with --seed among the others), the network is imported from
tests/data/onnx/ (vp-import, the row's precision) and mapped (vp-map) to find the layer's pick;
then the layer alone is simulated after each of 16 different preceding layers (1x1 convs
16 -> K, K = 8, 12, ..., 68, on a 28 x 28 map), with its pick fixed (nmp: tso.fixed_layers,
slicing / schedule / tile; mesh: mapper.fixed_layers, T_of, T_ox and cores), and once after a
copy of itself (the calibration's warm-up). The estimate is the same in every context; the
spread of the simulated cycles is what the layer before leaves behind (on nmp the TLEs' relative
phase, on the mesh the cores' and the NoC's; the DRAM's open rows and queues), which no estimate
of the layer alone can know.

Writes OUT/context_spread.csv (a row per distinct layer: shape, pick, estimate, simulated cycles
in the network and over the contexts, sim/est - 1 range, the spread max/min - 1, the contexts
within 15 %) and OUT/context_runs.csv (every run).

  /usr/bin/python3 bench/heldout/context_spread.py OUT [--layers bench/heldout/layers.csv]
      [--above 15] [--control 0] [--seed 1] [--bindir build/platform] [--config configs/nmp.yaml
      | configs/mesh-4x4.yaml | configs/mesh-8x8.yaml]
      [--jobs 2] [--set key=value ...]
"""
import argparse
import csv
import json
import os
import random
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
CONTEXTS = [('k%d' % k, {'name': 'pre', 'type': 'conv', 'C': 16, 'K': k, 'H': 28, 'W': 28, 'R': 1, 'S': 1,
                         'stride': 1, 'pad': 0, 'groups': 1}) for k in range(8, 72, 4)] + [('self', None)]


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit('context_spread: %s failed (exit %d): %s' % (' '.join(cmd), r.returncode, r.stderr.strip()[-500:]))
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('out')
    ap.add_argument('--layers', default=os.path.join(ROOT, 'bench/heldout/layers.csv'))
    ap.add_argument('--above', type=float, default=15.0)
    ap.add_argument('--control', type=int, default=0)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--bindir', default=os.path.join(ROOT, 'build/platform'))
    ap.add_argument('--config', default=os.path.join(ROOT, 'configs/nmp.yaml'))
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--set', action='append', default=[])
    a = ap.parse_args()
    sets = [x for s in a.set for x in ('--set', s)]
    work = os.path.join(a.out, 'work')
    os.makedirs(work, exist_ok=True)

    platform = os.path.splitext(os.path.basename(a.config))[0]  # the config column of layers.csv
    mesh = platform.startswith('mesh')
    rows = [r for r in csv.DictReader(open(a.layers)) if r['config'] == platform]
    if not rows:
        sys.exit('context_spread: %s has no rows of config "%s"' % (a.layers, platform))
    above = [r for r in rows if abs(float(r['sim_over_est_minus_1'])) * 100 > a.above]
    rest = [r for r in rows if abs(float(r['sim_over_est_minus_1'])) * 100 <= a.above]
    control = random.Random(a.seed).sample(rest, min(a.control, len(rest)))
    chosen = [('above', r) for r in above] + [('control', r) for r in control]

    # Import and map every (network, precision) once.
    nets = {}
    for _, r in chosen:
        key = (r['network'], r['precision'])
        if key in nets:
            continue
        base = os.path.join(work, '%s_%s' % key)
        onnx = os.path.join(ROOT, 'tests/data/onnx', r['network'] + '.onnx')
        run([os.path.join(a.bindir, 'vp-import'), onnx, '-o', base + '.json', '--precision', r['precision']])
        run([os.path.join(a.bindir, 'vp-map'), a.config, base + '.json', '--out', base + '_mapping.json'] + sets)
        wl = json.load(open(base + '.json'))
        mp = json.load(open(base + '_mapping.json'))
        if mesh:
            picks = {l['name']: '%d,%d,%d' % (l['slices']['T_of'], l['slices']['T_ox'], l['k'])
                     for l in mp['layers'] if l.get('mapped')}
        else:
            picks = {c['layer']: '%s/%s/%d,%d,%d,%d' % (c['slicing'], c['schedule'], c['tile']['T_M'], c['tile']['T_N'],
                                                       c['tile']['T_R'], c['tile']['T_C']) for c in mp['convs']}
        nets[key] = ({l['name']: l for l in wl['layers']}, picks)

    # Distinct layers: the same shape, precision and pick in several networks is run once.
    todo, seen = [], {}
    for sel, r in chosen:
        layers, picks = nets[(r['network'], r['precision'])]
        if r['layer'] not in picks:
            sys.exit('context_spread: no pick for layer "%s" of %s in the mapping' % (r['layer'], r['network']))
        spec, pick = dict(layers[r['layer']]), picks[r['layer']]
        spec.pop('inputs', None)
        spec.pop('name', None)
        key = (json.dumps(spec, sort_keys=True), r['precision'], pick)
        if key in seen:
            seen[key]['also'].append(r['network'])
            continue
        seen[key] = {'sel': sel, 'row': r, 'spec': spec, 'pick': pick, 'also': []}
        todo.append(seen[key])

    def simulate(job):
        i, (cname, pre) = job
        item = todo[i]
        d = os.path.join(work, 'l%03d_%s' % (i, cname))
        one = dict(item['spec'], name='one')
        first = dict(item['spec'], name='pre') if pre is None else pre
        json.dump({'name': 'ctx', 'precision': int(item['row']['precision']), 'layers': [first, one]},
                  open(d + '.json', 'w'))
        subprocess.run(['rm', '-rf', d])
        key = 'mapper.fixed_layers=one=' if mesh else 'tso.fixed_layers=one='
        run([os.path.join(a.bindir, 'vp-run'), a.config, d + '.json', '--out', d, '--quiet',
             '--set', key + item['pick']] + sets)
        for l in json.load(open(os.path.join(d, 'layers.json')))['layers']:
            if l['name'] == 'one':
                return (i, cname, l['est_cycles'], l['sim_cycles'])
        sys.exit('context_spread: no layer "one" in ' + d)

    jobs = [(i, ctx) for i in range(len(todo)) for ctx in CONTEXTS]
    with ThreadPoolExecutor(a.jobs) as ex:
        results = list(ex.map(simulate, jobs))

    with open(os.path.join(a.out, 'context_runs.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['network', 'precision', 'layer', 'context', 'est_cycles', 'sim_cycles'])
        for i, cname, est, sim in results:
            r = todo[i]['row']
            w.writerow([r['network'], r['precision'], r['layer'], cname, '%.1f' % est, '%.1f' % sim])

    with open(os.path.join(a.out, 'context_spread.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['selected', 'network', 'also_in', 'precision', 'layer', 'shape', 'pick', 'est_cycles',
                    'sim_in_network', 'network_err_pct', 'sim_min', 'sim_median', 'sim_max', 'err_min_pct',
                    'err_max_pct', 'spread_pct', 'contexts_within_15', 'contexts'])
        for i, item in enumerate(todo):
            r, s = item['row'], item['spec']
            mine = [x for x in results if x[0] == i]
            est = mine[0][2]
            if any(abs(x[2] - est) > 1e-6 * est for x in mine):  # the measurement assumes one estimate
                sys.exit('context_spread: the estimate of %s (%s) differs between contexts' % (item['row']['layer'],
                                                                                            item['row']['network']))
            sims = [x[3] for x in mine]
            errs = [100 * (x / est - 1) for x in sims]
            if s.get('type') == 'fc':
                shape = 'fc %d->%d' % (s.get('in', 0), s.get('out', 0))
            else:
                shape = '%dx%d %d->%d %dx%d/%d g%d' % (s.get('H', 1), s.get('W', 1), s.get('C', 0), s.get('K', 0),
                                                      s.get('R', 1), s.get('S', 1), s.get('stride', 1), s.get('groups', 1))
            w.writerow([item['sel'], r['network'], ' '.join(item['also']), r['precision'], r['layer'], shape,
                        item['pick'], '%.1f' % est, r['sim_cycles'], '%.2f' % (100 * float(r['sim_over_est_minus_1'])),
                        '%.1f' % min(sims), '%.1f' % statistics.median(sims), '%.1f' % max(sims),
                        '%.2f' % min(errs), '%.2f' % max(errs), '%.2f' % (100 * (max(sims) / min(sims) - 1)),
                        sum(abs(e) <= 15 for e in errs), len(sims)])
    print('context_spread: %d layers x %d contexts; wrote %s' % (len(todo), len(CONTEXTS),
                                                                 os.path.join(a.out, 'context_spread.csv')))


if __name__ == '__main__':
    main()
