#!/usr/bin/env node
// Draws a BlueMap marker file (GET /maps/bluemap/markers.json) as BlueMap lays it on the ground,
// seen from above: each shape marker's outline and fill in its own colours, its label at its
// anchor, over a plain block grid (x east, z south, north up). Renders it with Chromium
// (playwright-core, /usr/bin/chromium or CHROMIUM_PATH) to a PNG: docs/web-map.png is made so.
//
// Usage: node scripts/web-map-picture.js <markers.json URL or file> <out.png>
'use strict';

const { readFileSync, writeFileSync } = require('node:fs');
const { chromium } = require('playwright-core');

const WIDTH = 960;
const HEIGHT = 640;
const MARGIN = { left: 70, top: 48, right: 24, bottom: 44 };

const escapeText = (text) => String(text).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const rgba = (color) => `rgba(${color.r}, ${color.g}, ${color.b}, ${color.a})`;

function niceStep(span, target = 8) {
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((factor) => factor * power).find((step) => step >= raw);
}

function draw(file) {
  const markers = Object.values(file).flatMap((set) => Object.values(set.markers));
  const points = markers.flatMap((marker) => marker.shape);
  const minX = Math.min(...points.map((p) => p.x));
  const maxX = Math.max(...points.map((p) => p.x));
  const minZ = Math.min(...points.map((p) => p.z));
  const maxZ = Math.max(...points.map((p) => p.z));
  const pad = Math.max(8, Math.ceil(Math.max(maxX - minX, maxZ - minZ) * 0.08));
  const box = { minX: minX - pad, maxX: maxX + pad, minZ: minZ - pad, maxZ: maxZ + pad };
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const scale = Math.min(innerWidth / (box.maxX - box.minX), innerHeight / (box.maxZ - box.minZ));
  // The picture as wide as the drawing needs (north up, blocks square).
  const width = Math.ceil(MARGIN.left + (box.maxX - box.minX) * scale + MARGIN.right);
  const sx = (x) => MARGIN.left + (x - box.minX) * scale;
  const sz = (z) => MARGIN.top + (z - box.minZ) * scale;
  const step = niceStep(Math.max(box.maxX - box.minX, box.maxZ - box.minZ));
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" font-family="system-ui, sans-serif" font-size="13">`);
  out.push(`<rect width="${width}" height="${HEIGHT}" fill="#ffffff"/>`);
  out.push(`<rect x="${sx(box.minX)}" y="${sz(box.minZ)}" width="${(box.maxX - box.minX) * scale}" height="${(box.maxZ - box.minZ) * scale}" fill="#f4f1ea" stroke="#999"/>`);
  for (let x = Math.ceil(box.minX / step) * step; x <= box.maxX; x += step) {
    out.push(`<line x1="${sx(x)}" y1="${sz(box.minZ)}" x2="${sx(x)}" y2="${sz(box.maxZ)}" stroke="#d6d0c4"/>`);
    out.push(`<text x="${sx(x)}" y="${sz(box.maxZ) + 16}" text-anchor="middle" fill="#555">${x}</text>`);
  }
  for (let z = Math.ceil(box.minZ / step) * step; z <= box.maxZ; z += step) {
    out.push(`<line x1="${sx(box.minX)}" y1="${sz(z)}" x2="${sx(box.maxX)}" y2="${sz(z)}" stroke="#d6d0c4"/>`);
    out.push(`<text x="${sx(box.minX) - 6}" y="${sz(z) + 4}" text-anchor="end" fill="#555">${z}</text>`);
  }
  out.push(`<text x="${MARGIN.left}" y="22" font-weight="bold" fill="#333">markers.json seen from above: ${markers.length} cities (x →, z ↓, north up)</text>`);
  for (const marker of markers) {
    const path = marker.shape.map((p) => `${sx(p.x)},${sz(p.z)}`).join(' ');
    out.push(`<polygon points="${path}" fill="${rgba(marker.fillColor)}" stroke="${rgba(marker.lineColor)}" stroke-width="${marker.lineWidth}"/>`);
  }
  for (const marker of markers) {
    out.push(`<text x="${sx(marker.position.x)}" y="${sz(marker.position.z) + 4}" text-anchor="middle" font-weight="bold" fill="#12304d" stroke="#fff" stroke-width="3" paint-order="stroke">${escapeText(marker.label)}</text>`);
  }
  out.push('</svg>');
  return { svg: out.join('\n'), width };
}

async function main() {
  const [source, target] = process.argv.slice(2);
  if (!source || !target) {
    throw new Error('usage: node scripts/web-map-picture.js <markers.json URL or file> <out.png>');
  }
  const file = /^https?:/.test(source) ? await (await fetch(source)).json() : JSON.parse(readFileSync(source, 'utf8'));
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const { svg, width } = draw(file);
    const page = await browser.newPage({ viewport: { width, height: HEIGHT } });
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    writeFileSync(target, await page.screenshot({ type: 'png' }));
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(error.message);
  process.exit(1);
});
