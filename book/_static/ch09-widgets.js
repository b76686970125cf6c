/* Chapter 09's widgets in the browser: controls, readout and plot.
 *
 * Every number shown here was computed by the Python package chapter09 when the
 * book was built, for every position of every control, and written into the page
 * as JSON (see chapter09/interactive.py). This script only looks the current
 * positions up and draws what it finds: it computes no result of its own.
 */
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const COLORS = ["#1f77b4", "#d95f02", "#1b9e77", "#666666"];
  const W = 560, H = 300, M = { left: 64, right: 16, top: 12, bottom: 44 };
  const SUP = { "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹", "-": "⁻" };
  const caFormat = new Intl.NumberFormat("ca", { maximumFractionDigits: 2 });
  // Catalan typography: the minus sign (−0,2), not the hyphen Intl gives, as chapter09.fmt does
  const caNumber = { format: (x) => caFormat.format(x).replace("-", "\u2212") };

  function el(tag, attrs, parent, ns) {
    const node = ns ? document.createElementNS(SVG, tag) : document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  const power = (e) => (e === 0 ? "1" : "10" + String(e).split("").map((c) => SUP[c]).join(""));

  function scale(values, log, lo, hi) {
    const v = values.filter((x) => (log ? x > 0 : isFinite(x)));
    let a = Math.min(...v), b = Math.max(...v);
    if (log) { a = Math.floor(Math.log10(a)); b = Math.ceil(Math.log10(b)); if (a === b) b += 1; }
    else if (a === b) { a -= 1; b += 1; }
    const f = log ? (x) => (Math.log10(Math.max(x, 1e-300)) - a) / (b - a) : (x) => (x - a) / (b - a);
    const ticks = [];
    if (log) { const step = Math.max(1, Math.ceil((b - a) / 6)); for (let e = a; e <= b; e += step) ticks.push([Math.pow(10, e), power(e)]); }
    else { const raw = (b - a) / 5, mag = Math.pow(10, Math.floor(Math.log10(raw))); const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
      for (let t = Math.ceil(a / step) * step; t <= b + 1e-12; t += step) ticks.push([t, caNumber.format(Math.abs(t) < 1e-12 ? 0 : t)]); }
    return { map: (x) => lo + f(x) * (hi - lo), ticks };
  }

  function axes(svg, sx, sy, plot) {
    for (const [t, label] of sx.ticks) { const x = sx.map(t); el("line", { x1: x, x2: x, y1: H - M.bottom, y2: H - M.bottom + 4, stroke: "#333" }, svg, 1);
      el("text", { x, y: H - M.bottom + 16, "text-anchor": "middle", "font-size": 11 }, svg, 1).textContent = label; }
    for (const [t, label] of sy.ticks) { const y = sy.map(t); el("line", { x1: M.left - 4, x2: W - M.right, y1: y, y2: y, stroke: "#ddd" }, svg, 1);
      el("text", { x: M.left - 6, y: y + 4, "text-anchor": "end", "font-size": 11 }, svg, 1).textContent = label; }
    el("line", { x1: M.left, x2: W - M.right, y1: H - M.bottom, y2: H - M.bottom, stroke: "#333" }, svg, 1);
    el("text", { x: (M.left + W - M.right) / 2, y: H - 6, "text-anchor": "middle", "font-size": 12 }, svg, 1).textContent = plot.xlabel;
    el("text", { x: 14, y: (M.top + H - M.bottom) / 2, "text-anchor": "middle", "font-size": 12, transform: `rotate(-90 14 ${(M.top + H - M.bottom) / 2})` }, svg, 1).textContent = plot.ylabel;
  }

  function legend(svg, labels) {
    labels.forEach((label, i) => { const y = M.top + 8 + 16 * i;
      el("rect", { x: W - M.right - 170, y: y - 8, width: 12, height: 10, fill: COLORS[i % COLORS.length] }, svg, 1);
      el("text", { x: W - M.right - 152, y: y + 1, "font-size": 11 }, svg, 1).textContent = label; });
  }

  const draw = {
    lines(svg, p) {
      const xs = p.series.flatMap((s) => s.x), ys = p.series.flatMap((s) => s.y).concat(p.marker ? [p.marker.y] : []);
      const sx = scale(xs, p.xlog, M.left, W - M.right), sy = scale(ys, p.ylog, H - M.bottom, M.top);
      axes(svg, sx, sy, p);
      p.series.forEach((s, i) => el("polyline", { fill: "none", stroke: COLORS[i % COLORS.length], "stroke-width": 2,
        "stroke-dasharray": s.dash ? "6 4" : "none", points: s.x.map((x, j) => `${sx.map(x)},${sy.map(s.y[j])}`).join(" ") }, svg, 1));
      if (p.marker) el("circle", { cx: sx.map(p.marker.x), cy: sy.map(p.marker.y), r: 5, fill: "none", stroke: "#d95f02", "stroke-width": 2 }, svg, 1);
      legend(svg, p.series.map((s) => s.label));
    },
    bars(svg, p) {
      const ys = p.series.flatMap((s) => s.y).concat([0]);
      const sy = scale(ys, false, H - M.bottom, M.top), n = p.labels.length, bw = (W - M.left - M.right) / n;
      axes(svg, { ticks: [], map: (x) => x }, sy, p);
      p.labels.forEach((label, j) => el("text", { x: M.left + bw * (j + 0.5), y: H - M.bottom + 16, "text-anchor": "middle", "font-size": 10 }, svg, 1).textContent = label);
      p.series.forEach((s, i) => s.y.forEach((v, j) => { const y0 = sy.map(0), y1 = sy.map(v);
        el("rect", { x: M.left + bw * j + 2 + i * (bw - 4) / p.series.length, width: (bw - 4) / p.series.length, y: Math.min(y0, y1), height: Math.abs(y1 - y0), fill: COLORS[i] }, svg, 1); }));
      legend(svg, p.series.map((s) => s.label));
    },
    heatmap(svg, p) {
      const n = p.z.length, size = Math.min(W - M.left - M.right, H - M.top - M.bottom) / n;
      p.z.forEach((row, t) => row.forEach((v, j) => el("rect", { x: M.left + j * size, y: M.top + t * size, width: size - 1, height: size - 1,
        fill: `rgba(8, 48, 107, ${Math.max(0, Math.min(1, v))})`, stroke: "#eee" }, svg, 1)));
      for (let j = 0; j < n; j++) { el("text", { x: M.left + (j + 0.5) * size, y: M.top + n * size + 14, "text-anchor": "middle", "font-size": 11 }, svg, 1).textContent = j + 1;
        el("text", { x: M.left - 6, y: M.top + (j + 0.6) * size, "text-anchor": "end", "font-size": 11 }, svg, 1).textContent = j + 1; }
      el("text", { x: M.left + n * size / 2, y: H - 6, "text-anchor": "middle", "font-size": 12 }, svg, 1).textContent = p.xlabel;
      el("text", { x: M.left + n * size + 20, y: M.top + 14, "font-size": 12 }, svg, 1).textContent = p.ylabel + " ↓";
    },
  };

  function setup(root) {
    const spec = JSON.parse(root.querySelector("script.ch09-data").textContent);
    const positions = spec.controls.map((c) => c.initial);
    const controls = el("div", { class: "ch09-controls" }, root);
    const svg = el("svg", { class: "ch09-plot", viewBox: `0 0 ${W} ${H}`, role: "img" }, root, 1);
    const table = el("table", { class: "ch09-readout table" }, root);
    const cells = {};
    for (const [key, label] of Object.entries(spec.readout_labels)) {
      const tr = el("tr", {}, table); el("th", {}, tr).textContent = label;
      cells[key] = el("td", { "data-readout": key }, tr);
    }
    function update() {
      const state = spec.states[positions.join("-")];
      for (const [key, td] of Object.entries(cells)) td.textContent = state.readout[key];
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      draw[state.plot.kind](svg, state.plot);
      root.dataset.state = positions.join("-");
    }
    spec.controls.forEach((c, i) => {
      const label = el("label", { class: "ch09-control" }, controls);
      el("span", {}, label).textContent = c.label + " ";
      let input;
      if (c.labels.length > 7) {
        input = el("input", { type: "range", min: 0, max: c.labels.length - 1, step: 1, value: c.initial, "data-control": c.name }, label);
        const out = el("output", {}, label); out.textContent = c.labels[c.initial];
        input.addEventListener("input", () => { positions[i] = Number(input.value); out.textContent = c.labels[positions[i]]; update(); });
      } else {
        input = el("select", { "data-control": c.name }, label);
        c.labels.forEach((text, j) => { const o = el("option", { value: j }, input); o.textContent = text; if (j === c.initial) o.selected = true; });
        input.addEventListener("change", () => { positions[i] = Number(input.value); update(); });
      }
    });
    update();
  }

  document.addEventListener("DOMContentLoaded", () => document.querySelectorAll(".ch09-widget").forEach(setup));
})();
