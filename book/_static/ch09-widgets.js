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
  // The drawing is as wide as the widget (at most 560 px), so a font size of 11 is 11 CSS px
  // on a phone too; W and H are set for each widget before it is drawn.
  let W = 560, H = 300;
  const M = { left: 64, right: 16, top: 12, bottom: 44 };
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

  // A log axis in per cent (unit "%"): 0,01 % … 100 % as numbers, smaller ones as powers of ten.
  const percent = (e) => (e >= -2 ? caNumber.format(Math.pow(10, e)) : power(e)) + "\u00a0%";

  function scale(values, log, lo, hi, unit) {
    const v = values.filter((x) => (log ? x > 0 : isFinite(x)));
    let a = Math.min(...v), b = Math.max(...v);
    if (log) { a = Math.floor(Math.log10(a)); b = Math.ceil(Math.log10(b)); if (a === b) a -= 1; }  // the top stays the data's
    else if (a === b) { a -= 1; b += 1; }
    const f = log ? (x) => (Math.log10(Math.max(x, 1e-300)) - a) / (b - a) : (x) => (x - a) / (b - a);
    const ticks = [];
    if (log) { const step = Math.max(1, Math.ceil((b - a) / 6)); for (let e = b; e >= a; e -= step) ticks.push([Math.pow(10, e), unit === "%" ? percent(e) : power(e)]); }
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

  // A series may carry its colour (the page's figure's); otherwise the palette's, in order.
  const colour = (s, i) => s.color || COLORS[i % COLORS.length];

  // The legend: in the top right corner, or, with where = "below", under the axes (the drawing grows).
  function legend(svg, series, kind, where) {
    const width = 190, height = 16 * series.length + 6, below = where === "below";
    const x0 = below ? M.left : W - M.right - width, y0 = below ? H + 2 : M.top;
    if (below) svg.setAttribute("viewBox", `0 0 ${W} ${H + height + 6}`);
    el("rect", { x: x0 - 4, y: y0, width: width + 2, height, fill: "#fff", "fill-opacity": 0.9,
      stroke: "#ccc" }, svg, 1);
    series.forEach((s, i) => { const y = y0 + 12 + 16 * i, color = colour(s, i);
      if (kind === "bars") el("rect", { x: x0, y: y - 8, width: 18, height: 10, fill: color }, svg, 1);
      else el("line", { x1: x0, x2: x0 + 18, y1: y - 3, y2: y - 3, stroke: color, "stroke-width": 2,
        "stroke-dasharray": s.dash ? "6 4" : "none" }, svg, 1);
      el("text", { x: x0 + 24, y: y + 1, "font-size": 11 }, svg, 1).textContent = s.label; });
  }

  const draw = {
    lines(svg, p) {
      const xs = p.series.flatMap((s) => s.x), ys = p.series.flatMap((s) => s.y).concat(p.marker ? [p.marker.y] : []);
      const sx = scale(xs, p.xlog, M.left, W - M.right), sy = scale(ys, p.ylog, H - M.bottom, M.top, p.yunit);
      axes(svg, sx, sy, p);
      p.series.forEach((s, i) => el("polyline", { fill: "none", stroke: colour(s, i), "stroke-width": 2,
        "stroke-dasharray": s.dash ? "6 4" : "none", points: s.x.map((x, j) => `${sx.map(x)},${sy.map(s.y[j])}`).join(" ") }, svg, 1));
      if (p.marker) el("circle", { cx: sx.map(p.marker.x), cy: sy.map(p.marker.y), r: 5, fill: "none", stroke: p.marker.color || "#d95f02", "stroke-width": 2 }, svg, 1);
      legend(svg, p.series, "lines", p.legend);
    },
    bars(svg, p) {
      const ys = p.series.flatMap((s) => s.y).concat([0]);
      const pad = 8, sy = scale(ys, false, H - M.bottom, M.top + 16 * p.series.length + 10), n = p.labels.length,
        bw = (W - M.left - M.right - 2 * pad) / n, x0 = M.left + pad;
      axes(svg, { ticks: [], map: (x) => x }, sy, p);
      p.labels.forEach((label, j) => el("text", { x: x0 + bw * (j + 0.5), y: H - M.bottom + 16, "text-anchor": "middle", "font-size": 10 }, svg, 1).textContent = label);
      p.series.forEach((s, i) => s.y.forEach((v, j) => { const y0 = sy.map(0), y1 = sy.map(v);
        el("rect", { x: x0 + bw * j + 2 + i * (bw - 4) / p.series.length, width: (bw - 4) / p.series.length, y: Math.min(y0, y1), height: Math.abs(y1 - y0), fill: colour(s, i) }, svg, 1); }));
      legend(svg, p.series, "bars");
    },
    heatmap(svg, p) {
      const n = p.z.length, size = Math.min(W - M.left - M.right - 110, H - M.top - M.bottom) / n;
      p.z.forEach((row, t) => row.forEach((v, j) => el("rect", { x: M.left + j * size, y: M.top + t * size, width: size - 1, height: size - 1,
        fill: `rgba(8, 48, 107, ${Math.max(0, Math.min(1, v))})`, stroke: "#eee" }, svg, 1)));
      for (let j = 0; j < n; j++) { el("text", { x: M.left + (j + 0.5) * size, y: M.top + n * size + 14, "text-anchor": "middle", "font-size": 11 }, svg, 1).textContent = j + 1;
        el("text", { x: M.left - 6, y: M.top + (j + 0.6) * size, "text-anchor": "end", "font-size": 11 }, svg, 1).textContent = j + 1; }
      el("text", { x: M.left + n * size / 2, y: H - 6, "text-anchor": "middle", "font-size": 12 }, svg, 1).textContent = p.xlabel;
      el("text", { x: M.left + n * size + 20, y: M.top + 14, "font-size": 12 }, svg, 1).textContent = p.ylabel + " ↓";
      const bar = { x: M.left + n * size + 20, y: M.top + 40, h: n * size - 60 };  // the colour scale: α from 1 to 0
      for (let k = 0; k < 20; k++) el("rect", { x: bar.x, y: bar.y + k * bar.h / 20, width: 14, height: bar.h / 20 + 0.5,
        fill: `rgba(8, 48, 107, ${1 - k / 19})` }, svg, 1);
      el("rect", { x: bar.x, y: bar.y, width: 14, height: bar.h, fill: "none", stroke: "#999" }, svg, 1);
      [[1, bar.y + 4], [0, bar.y + bar.h + 4]].forEach(([v, y]) => { el("text", { x: bar.x + 20, y, "font-size": 11 }, svg, 1)
        .textContent = (p.zlabel || "α") + " = " + caNumber.format(v); });
    },
  };

  // A state's plot: what all states share (written once, chapter09.interactive.shared) and its own.
  function plotOf(spec, own) {
    const plot = Object.assign({}, spec.plot, own.plot);
    if (spec.series && spec.series.length) plot.series = spec.series.map((s, i) => Object.assign({}, s, own.plot.series[i]));
    return plot;
  }

  // What a screen reader hears for the plot: what is drawn, and the readout's values.
  function description(state, labels) {
    const p = state.plot, values = Object.entries(state.readout).map(([k, v]) => `${labels[k]}: ${v}`).join("; ");
    const what = p.kind === "heatmap" ? `Mapa de calor de ${p.zlabel || "α"}: ${p.ylabel} per files, ${p.xlabel} per columnes`
      : `${p.ylabel} segons ${p.xlabel}` + (p.series ? ` (${p.series.map((s) => s.label).join(", ")})` : "");
    return `${what}. ${values}.`;
  }

  function valuesTable(details, p) {  // the heat map's numbers, for whoever cannot see its colours
    details.querySelector("table")?.remove();
    const table = el("table", { class: "ch09-values table" }, details), head = el("tr", {}, el("thead", {}, table));
    el("th", { scope: "col" }, head).textContent = `${p.ylabel} ↓, ${p.xlabel} →`;
    p.z[0].forEach((_, j) => { el("th", { scope: "col" }, head).textContent = j + 1; });
    const body = el("tbody", {}, table);
    p.z.forEach((row, t) => { const tr = el("tr", {}, body); el("th", { scope: "row" }, tr).textContent = t + 1;
      row.forEach((v) => { el("td", {}, tr).textContent = caNumber.format(v); }); });
  }

  function setup(root) {
    const spec = JSON.parse(root.querySelector("script.ch09-data").textContent);
    if (!spec || !Array.isArray(spec.controls) || typeof spec.states !== "object") throw new Error("dades sense controls");
    const positions = spec.controls.map((c) => c.initial);
    root.querySelector(".ch09-static")?.remove();  // the table shown without JavaScript
    W = Math.max(300, Math.min(560, Math.floor(root.clientWidth) - 24 || 560)); H = Math.round(W * 0.54);
    const controls = el("div", { class: "ch09-controls" }, root);
    const svg = el("svg", { class: "ch09-plot", viewBox: `0 0 ${W} ${H}`, role: "img" }, root, 1);
    const details = el("details", { class: "ch09-values-box" }, root);
    el("summary", {}, details).textContent = "Els valors del gràfic en una taula";
    const table = el("table", { class: "ch09-readout table", "aria-live": "polite" }, root);
    el("caption", {}, table).textContent = "Lectura";
    const cells = {};
    for (const [key, label] of Object.entries(spec.readout_labels)) {
      const tr = el("tr", {}, table); el("th", { scope: "row" }, tr).textContent = label;
      cells[key] = el("td", { "data-readout": key }, tr);
    }
    function update() {
      const own = spec.states[positions.join("-")];
      if (!own) throw new Error(`cap estat per a ${positions.join("-")}`);
      const state = { readout: own.readout, plot: plotOf(spec, own) };
      for (const [key, td] of Object.entries(cells)) td.textContent = state.readout[key];
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      draw[state.plot.kind](svg, state.plot);
      svg.setAttribute("aria-label", description(state, spec.readout_labels));
      details.hidden = state.plot.kind !== "heatmap";
      if (state.plot.kind === "heatmap") valuesTable(details, state.plot);
      root.dataset.state = positions.join("-");
    }
    spec.controls.forEach((c, i) => {
      const label = el("label", { class: "ch09-control" }, controls);
      el("span", {}, label).textContent = c.label + " ";
      let input;
      if (c.labels.length > 7) {
        input = el("input", { type: "range", min: 0, max: c.labels.length - 1, step: 1, value: c.initial, "data-control": c.name,
          "aria-valuetext": c.labels[c.initial] }, label);
        const out = el("output", { "aria-hidden": "true" }, label); out.textContent = c.labels[c.initial];
        input.addEventListener("input", () => { positions[i] = Number(input.value); out.textContent = c.labels[positions[i]];
          input.setAttribute("aria-valuetext", c.labels[positions[i]]); update(); });
      } else {
        input = el("select", { "data-control": c.name }, label);
        c.labels.forEach((text, j) => { const o = el("option", { value: j }, input); o.textContent = text; if (j === c.initial) o.selected = true; });
        input.addEventListener("change", () => { positions[i] = Number(input.value); update(); });
      }
    });
    update();
  }

  // A widget whose data is broken says so in its place, in Catalan; the page's other widgets work.
  function start(root) {
    try { setup(root); }
    catch (error) {
      root.querySelectorAll(":scope > :not(script):not(.ch09-static)").forEach((node) => node.remove());
      const note = el("p", { class: "ch09-broken", role: "status" }, root);
      note.textContent = "Aquest giny no es pot mostrar: les seves dades estan malmeses. Els números del text no en depenen.";
      console.warn(`ch09: ${root.id}: ${error.message}`);
    }
  }

  document.addEventListener("DOMContentLoaded", () => document.querySelectorAll(".ch09-widget").forEach(start));

  // A display equation or a figure wider than the page scrolls sideways (ch09-widgets.css): those
  // become Tab stops while they overflow, so that a keyboard can scroll them, and stop being ones
  // when a wider window lets them fit (the theme does the same for tables and code, on resize too).
  const SCROLLABLE = '.bd-article div.math, .bd-article figure';
  function scrollables() {
    document.querySelectorAll(SCROLLABLE).forEach((box) => {
      const overflows = box.scrollWidth > box.clientWidth + 1;
      if (overflows && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.dataset.ch09Scroll = "";
        box.setAttribute("role", "group");
        const caption = box.querySelector("figcaption");
        box.setAttribute("aria-label", caption ? `figura desplaçable: ${caption.textContent.trim()}`
          : "equació ampla: desplaça-la amb les fletxes");
      } else if (!overflows && "ch09Scroll" in box.dataset && document.activeElement !== box) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
        delete box.dataset.ch09Scroll;
      }
    });
  }
  let pending = false;
  window.addEventListener("load", () => {
    scrollables();
    window.addEventListener("resize", () => {
      if (!pending) {
        pending = true;
        requestAnimationFrame(() => { pending = false; scrollables(); });
      }
    });
  });
})();
