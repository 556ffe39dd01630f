#!/usr/bin/env node
// Summarises V8 CPU profiles (node --cpu-prof) by self time: the top functions, and the share of
// samples per package (node_modules/<name>) or area (our dist/, node: internals, GC, idle).
// Usage: node bench/profile-summary.js <file.cpuprofile> [top=25]
const { readFileSync } = require('node:fs');

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.js <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTicks = new Map();
for (const id of profile.samples) {
  selfTicks.set(id, (selfTicks.get(id) ?? 0) + 1);
}
let total = 0;
let idle = 0;
const byFunction = new Map();
const byArea = new Map();
const areaOf = (url, name) => {
  if (name === '(garbage collector)') {return 'GC';}
  if (name === '(program)') {return '(program: native/V8)';}
  if (!url) {return '(native)';}
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) {return pkg[1];}
  if (url.startsWith('node:')) {return 'node: internals';}
  if (url.includes('/dist/')) {return 'our code (dist/)';}
  return url;
};
for (const [id, ticks] of selfTicks) {
  const { callFrame } = nodes.get(id);
  if (callFrame.functionName === '(idle)') {
    idle += ticks;
    continue;
  }
  total += ticks;
  const where = callFrame.url ? `${callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${callFrame.lineNumber + 1}` : '';
  const key = `${callFrame.functionName || '(anonymous)'} ${where}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + ticks);
  const area = areaOf(callFrame.url, callFrame.functionName);
  byArea.set(area, (byArea.get(area) ?? 0) + ticks);
}
const pct = (ticks) => `${((ticks / total) * 100).toFixed(1)}%`.padStart(6);
const out = [];
out.push(`${file}: ${total} busy samples (${((idle / (total + idle)) * 100).toFixed(0)}% idle)`);
out.push('', 'By package/area (self time):');
for (const [area, ticks] of [...byArea].sort((a, b) => b[1] - a[1]).slice(0, 15)) {out.push(`${pct(ticks)}  ${area}`);}
out.push('', `Top ${top} functions (self time):`);
for (const [key, ticks] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {out.push(`${pct(ticks)}  ${key}`);}
process.stdout.write(`${out.join('\n')}\n`);

// Inclusive (total) time of the functions most on the stack, our code and the frameworks, so the
// cost of a pipe, guard or hook shows with everything it calls. Recursion is counted once.
if (process.env.PROFILE_INCLUSIVE !== '0') {
  const parent = new Map();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) {
      parent.set(child, node.id);
    }
  }
  const inclusive = new Map();
  for (const [id, ticks] of selfTicks) {
    if (nodes.get(id).callFrame.functionName === '(idle)') {
      continue;
    }
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const { callFrame } = nodes.get(at);
      if (!callFrame.url) {
        continue;
      }
      const where = `${callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/dist\//, 'dist/')}:${callFrame.lineNumber + 1}`;
      const key = `${callFrame.functionName || '(anonymous)'} ${where}`;
      if (!seen.has(key)) {
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + ticks);
      }
    }
  }
  const lines = ['', `Top ${top} functions (total time, with callees):`];
  for (const [key, ticks] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`${pct(ticks)}  ${key}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
