// twinsim replay viewer: draws the trace records inlined in #games, turn by turn.
// Plain browser JavaScript, no dependencies. Every drawn game object carries data-kind and its
// values as data-* attributes, so a test (or a curious user) can read the drawing back.
"use strict";
(function () {
  const RECORDS = JSON.parse(document.getElementById("games").textContent);
  const COLORS = ["#e8543f", "#2f7de1", "#1f9d55"];
  const $ = (id) => document.getElementById(id);

  // ---- small helpers -------------------------------------------------------------------------
  function esc(text) {
    return String(text).replace(/[&<>"']/g, (c) => ({
      "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
    })[c]);
  }
  // Attributes of an SVG element: data keys become data-* attributes.
  function attrs(a) {
    let out = "";
    for (const k in a) {
      if (a[k] === undefined || a[k] === null) continue;
      const name = k.startsWith("d_") ? "data-" + k.slice(2).replace(/_/g, "-") : k.replace(/_/g, "-");
      out += " " + name + '="' + esc(a[k]) + '"';
    }
    return out;
  }
  const el = (tag, a, inner) => "<" + tag + attrs(a) + (inner === undefined ? "/>" : ">" + inner + "</" + tag + ">");
  const text = (x, y, s, a) => el("text", Object.assign({ x: x, y: y }, a || {}), esc(s));
  const svg = (w, h, body) => '<svg viewBox="0 0 ' + w + " " + h +
    '" preserveAspectRatio="xMidYMid meet">' + body + "</svg>";

  // ---- the records as frames -----------------------------------------------------------------
  // Frame 0 is the initial state; frame k >= 1 is the state after turn k - 1, with the actions
  // that led to it, the referee's events of that turn and the views sent next.
  function framesOf(rec) {
    if (rec._frames) return rec._frames;
    const frames = [{
      state: rec.initial, actions: null, events: rec.setup_events || [],
      views: rec.initial_views || [], init: rec.init_input || null, player: null,
    }];
    for (const t of rec.turns) {
      frames.push({
        state: t.state, actions: t.actions || null, events: t.events || [],
        views: t.views || [], init: null, player: t.player === undefined ? null : t.player,
      });
    }
    rec._frames = frames;
    return frames;
  }
  function playerCount(rec) {
    const s = rec.initial;
    if (rec.game === "olymbits") return (s.active || [0, 0, 0]).length;
    if (s.players) return s.players.length;
    return 2;
  }
  function playerNames(rec) {
    const p = rec.params || {};
    const names = rec.players || p.players || p.bots || [];
    const out = [];
    for (let i = 0; i < playerCount(rec); i++) {
      out.push(typeof names[i] === "string" ? names[i] : "player " + i);
    }
    return out;
  }
  // Who printed each line of frame k's actions: everyone in simultaneous games, the mover in
  // alternating ones.
  function actors(rec, frames, k) {
    const f = frames[k];
    if (!f.actions) return [];
    if (rec.game === "zuniq") return [frames[k - 1].state.to_move];
    if (rec.game === "wondev-woman") return [f.player !== null ? f.player : frames[k - 1].state.to_move];
    return f.actions.map((_, i) => i);
  }

  // ---- X-mas Rush ----------------------------------------------------------------------------
  const XMAS = {
    cell: 74, ox: 62, oy: 62,
    scores: (s) => s.players.map((p) => p.score),
    active: (s) => s.players.map((p) => p.active),
    draw(rec, frames, k) {
      const s = frames[k].state, C = this.cell, ox = this.ox, oy = this.oy;
      const rows = s.tiles.map((r) => r.trim().split(/\s+/));
      const questsOf = s.players.map((p) => p.quests);
      let out = el("rect", { x: 0, y: 0, width: 1000, height: 640, fill: "#23412f" });
      const tile = (x0, y0, size, path, a) => {
        let g = el("rect", { x: x0 + 2, y: y0 + 2, width: size - 4, height: size - 4, rx: 6, fill: "#e9dcb8" });
        const c = size / 2, w = size * 0.22;
        const arms = [[c - w / 2, 0, w, c + w / 2], [c - w / 2, c - w / 2, c + w / 2, w], [c - w / 2, c - w / 2, w, c + w / 2], [0, c - w / 2, c + w / 2, w]];
        for (let d = 0; d < 4; d++) {
          if (path[d] === "1") {
            const a2 = arms[d];
            g += el("rect", { x: x0 + a2[0], y: y0 + a2[1], width: a2[2], height: a2[3], fill: "#8a6a3d" });
          }
        }
        return el("g", a, g);
      };
      const item = (cx, cy, it, where, r) => {
        const quest = questsOf[it[1]].indexOf(it[0]) >= 0;
        return el("g", { d_kind: "item", d_name: it[0], d_owner: it[1], d_where: where, d_x: it[2], d_y: it[3], d_quest: quest ? 1 : 0 },
          el("circle", { cx: cx, cy: cy, r: r, fill: COLORS[it[1]], stroke: quest ? "#ffd23f" : "#fff", stroke_width: quest ? 4 : 1.5 }) +
          text(cx, cy + 4, it[0].slice(0, 3), { "text-anchor": "middle", "font-size": 10, fill: "#fff", "font-weight": 700 }));
      };
      for (let y = 0; y < 7; y++) {
        for (let x = 0; x < 7; x++) {
          out += tile(ox + x * C, oy + y * C, C, rows[y][x], { d_kind: "tile", d_x: x, d_y: y, d_path: rows[y][x] });
        }
      }
      for (const it of s.items) {
        if (it[2] >= 0) out += item(ox + it[2] * C + C / 2, oy + it[3] * C + C / 2, it, "board", 14);
      }
      // The walks of a MOVE turn, step by step from the referee's "$i moved D" events.
      if (k > 0 && frames[k - 1].state.turn_type === "MOVE") {
        const STEP = { UP: [0, -1], RIGHT: [1, 0], DOWN: [0, 1], LEFT: [-1, 0] };
        frames[k - 1].state.players.forEach((p, i) => {
          let x = p.x, y = p.y, steps = 0;
          const d = i === 0 ? -6 : 6, pts = [(ox + x * C + C / 2 + d) + "," + (oy + y * C + C / 2 + d)];
          for (const e of frames[k].events) {
            const m = /^\$(\d) moved (UP|RIGHT|DOWN|LEFT)$/.exec(e);
            if (!m || +m[1] !== i) continue;
            x += STEP[m[2]][0];
            y += STEP[m[2]][1];
            steps++;
            pts.push((ox + x * C + C / 2 + d) + "," + (oy + y * C + C / 2 + d));
          }
          if (steps) {
            out += el("polyline", { points: pts.join(" "), fill: "none", stroke: COLORS[i], stroke_width: 5, stroke_dasharray: "10 6", stroke_linejoin: "round", opacity: 0.9, d_kind: "trail", d_player: i, d_steps: steps });
          }
        });
      }
      s.players.forEach((p, i) => {
        const d = i === 0 ? -17 : 17;
        out += el("circle", {
          cx: ox + p.x * C + C / 2 + d, cy: oy + p.y * C + C / 2 + d, r: 13, fill: COLORS[i],
          stroke: "#111", stroke_width: 2.5, opacity: p.active ? 1 : 0.35,
          d_kind: "player", d_player: i, d_x: p.x, d_y: p.y,
        });
      });
      // The pushes of this turn: an arrow where each pushed line enters the board.
      const f = frames[k];
      if (f.actions) {
        f.actions.forEach((line, i) => {
          const m = /^\s*PUSH\s+(\d+)\s+(UP|DOWN|LEFT|RIGHT)\s*$/i.exec(line || "");
          if (!m) return;
          const L = +m[1], dir = m[2].toUpperCase();
          if (L > 6) return;
          let x, y, rot;
          const off = (i === 0 ? -10 : 10);
          if (dir === "RIGHT") { x = ox - 30; y = oy + L * C + C / 2 + off; rot = 0; }
          if (dir === "LEFT") { x = ox + 7 * C + 30; y = oy + L * C + C / 2 + off; rot = 180; }
          if (dir === "DOWN") { x = ox + L * C + C / 2 + off; y = oy - 30; rot = 90; }
          if (dir === "UP") { x = ox + L * C + C / 2 + off; y = oy + 7 * C + 30; rot = 270; }
          out += el("polygon", {
            points: "-22,-9 6,-9 6,-17 24,0 6,17 6,9 -22,9", fill: COLORS[i], stroke: "#fff", stroke_width: 2,
            transform: "translate(" + x + "," + y + ") rotate(" + rot + ")", d_kind: "push", d_player: i, d_line: L, d_direction: dir,
          });
        });
      }
      // Each player's hand tile, quests and deck.
      s.players.forEach((p, i) => {
        const bx = 640, by = 40 + i * 290;
        out += el("rect", { x: bx - 10, y: by - 28, width: 350, height: 260, rx: 10, fill: "#1a3325", stroke: COLORS[i], stroke_width: 3 });
        out += text(bx, by, "player " + i + "   score " + p.score + (p.active ? "" : "   (out)"), { fill: "#fff", "font-size": 18, "font-weight": 700 });
        out += text(bx, by + 30, "hand tile", { fill: "#ccc", "font-size": 13 });
        out += tile(bx, by + 38, 70, p.tile, { d_kind: "hand", d_player: i, d_path: p.tile });
        for (const it of s.items) {
          if (it[2] === -1 - i) out += item(bx + 35, by + 73, it, "hand" + i, 14);
        }
        out += text(bx + 95, by + 30, "quests", { fill: "#ccc", "font-size": 13 });
        p.quests.forEach((q, j) => {
          out += el("g", { d_kind: "quest", d_player: i, d_name: q },
            el("rect", { x: bx + 95, y: by + 40 + j * 30, width: 140, height: 24, rx: 5, fill: COLORS[i] }) +
            text(bx + 103, by + 57 + j * 30, q, { fill: "#fff", "font-size": 14, "font-weight": 700 }));
        });
        out += el("text", { x: bx, y: by + 150, fill: "#fff", "font-size": 15, d_kind: "deck", d_player: i, d_count: p.deck.length },
          esc("hidden quests left in the deck: " + p.deck.length));
      });
      out += text(640, 620, "game turn " + s.turn + ": " + s.turn_type + " next, " + s.turns_left + " turns left", { fill: "#fff", "font-size": 16 });
      return svg(1000, 640, out);
    },
    info: (s) => "next: " + s.turn_type + (s.stale ? " · pushes cancelled " + s.stale + " turn(s) in a row" : ""),
  };

  // ---- Photosynthesis ------------------------------------------------------------------------
  // The referee's cell numbering: a spiral from the centre, ring by ring, starting east.
  const HEX_DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]; // E NE NW W SW SE (axial)
  const HEX = (function () {
    const cells = [[0, 0]];
    for (let d = 1; d <= 3; d++) {
      let q = d, r = 0;
      for (let o = 0; o < 6; o++) {
        for (let c = 0; c < d; c++) {
          cells.push([q, r]);
          q += HEX_DIRS[(o + 2) % 6][0];
          r += HEX_DIRS[(o + 2) % 6][1];
        }
      }
    }
    const index = {};
    cells.forEach((c, i) => { index[c[0] + "," + c[1]] = i; });
    return { cells: cells, index: index };
  })();
  // Shadow of each cell (largest casting tree size, 0 for none) for `trees` and sun direction.
  function shadows(trees, direction) {
    const out = new Array(37).fill(0);
    for (const t of trees) {
      const size = t[1];
      const c = HEX.cells[t[0]];
      for (let i = 1; i <= size; i++) {
        const cell = HEX.index[(c[0] + HEX_DIRS[direction][0] * i) + "," + (c[1] + HEX_DIRS[direction][1] * i)];
        if (cell !== undefined) out[cell] = Math.max(out[cell], size);
      }
    }
    return out;
  }
  const PHOTO = {
    scores: (s) => s.players.map((p) => p.score),
    active: (s) => s.players.map((p) => p.active),
    draw(rec, frames, k) {
      const s = frames[k].state, R = 42, cx = 330, cy = 330, sq3 = Math.sqrt(3);
      // This day's shadows were cast by the trees as they stood when the day began.
      let first = k;
      while (first > 0 && frames[first - 1].state.day === s.day) first--;
      const shadow = shadows(frames[first].state.trees, s.sun_direction);
      const pos = (i) => { const c = HEX.cells[i]; return [cx + R * sq3 * (c[0] + c[1] / 2), cy + R * 1.5 * c[1]]; };
      const hex = (x, y, r) => {
        const pts = [];
        for (let a = 0; a < 6; a++) { const t = Math.PI / 180 * (60 * a - 30); pts.push((x + r * Math.cos(t)).toFixed(1) + "," + (y + r * Math.sin(t)).toFixed(1)); }
        return pts.join(" ");
      };
      const RICH = ["#5b5147", "#d9c58f", "#a9c46c", "#5f9e3e"];
      let out = el("rect", { x: 0, y: 0, width: 1000, height: 660, fill: "#1c2d3a" });
      for (let i = 0; i < 37; i++) {
        const p = pos(i), rich = s.richness[i];
        out += el("polygon", { points: hex(p[0], p[1], R - 1.5), fill: RICH[rich], stroke: "#1c2d3a", stroke_width: 2, d_kind: "cell", d_cell: i, d_richness: rich });
        if (shadow[i] > 0) {
          out += el("polygon", { points: hex(p[0], p[1], R - 1.5), fill: "#000", opacity: 0.18 + 0.1 * shadow[i], d_kind: "shadow", d_cell: i, d_size: shadow[i] });
        }
      }
      const RADIUS = [6, 11, 17, 24];
      for (const t of s.trees) {
        const p = pos(t[0]), spooky = shadow[t[0]] >= t[1] && t[1] > 0;
        out += el("g", { d_kind: "tree", d_cell: t[0], d_size: t[1], d_owner: t[2], d_dormant: t[3], d_spooky: spooky ? 1 : 0, opacity: t[3] ? 0.6 : 1 },
          el("circle", { cx: p[0], cy: p[1], r: RADIUS[t[1]], fill: COLORS[t[2]], stroke: "#fff", stroke_width: 2, stroke_dasharray: t[3] ? "4 3" : null }) +
          (t[1] > 0 ? text(p[0], p[1] + 5, String(t[1]), { "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#fff" }) : "") +
          (t[3] ? text(p[0] + RADIUS[t[1]] - 2, p[1] - RADIUS[t[1]] + 4, "z", { "font-size": 13, fill: "#fff", "font-weight": 700 }) : ""));
      }
      // Cell numbers above the trees (a large tree covers most of its cell), with a halo.
      for (let i = 0; i < 37; i++) {
        const p = pos(i);
        out += el("text", { x: p[0] - R * 0.62, y: p[1] - R * 0.3, "font-size": 10, "font-weight": 700, fill: "#222", stroke: "#fff", stroke_width: 2.5, "paint-order": "stroke", d_kind: "cell-number", d_cell: i }, esc(String(i)));
      }
      // The sun sits opposite the direction the shadows fall.
      const d = HEX_DIRS[(s.sun_direction + 3) % 6];
      // 4.2 cells out: clear of the board's outer ring, inside the drawing in every direction.
      const sx = cx + 4.2 * R * sq3 * (d[0] + d[1] / 2), sy = cy + 4.2 * R * 1.5 * d[1];
      out += el("g", { d_kind: "sun", d_direction: s.sun_direction },
        el("circle", { cx: sx, cy: sy, r: 20, fill: "#ffd23f", stroke: "#ff9d00", stroke_width: 4 }) +
        text(sx, sy + 5, "sun", { "text-anchor": "middle", "font-size": 12, "font-weight": 700 }));
      const bx = 680;
      out += el("text", { x: bx, y: 50, fill: "#fff", "font-size": 22, "font-weight": 700, d_kind: "day", d_value: s.day }, esc("day " + s.day + " / 23"));
      out += el("text", { x: bx, y: 80, fill: "#ddd", "font-size": 16, d_kind: "nutrients", d_value: s.nutrients }, esc("nutrients " + s.nutrients));
      out += text(bx, 102, "sun direction " + s.sun_direction + " (the yellow disc):", { fill: "#ddd", "font-size": 13 });
      out += text(bx, 118, "shadows fall away from it", { fill: "#ddd", "font-size": 13 });
      s.players.forEach((p, i) => {
        const y = 150 + i * 130;
        out += el("rect", { x: bx - 10, y: y - 26, width: 300, height: 110, rx: 10, fill: "#233848", stroke: COLORS[i], stroke_width: 3 });
        out += text(bx, y, "player " + i + (p.active ? "" : " (disqualified)"), { fill: "#fff", "font-size": 17, "font-weight": 700 });
        out += el("text", { x: bx, y: y + 28, fill: "#ffd23f", "font-size": 16, d_kind: "sunpoints", d_player: i, d_sun: p.sun }, esc("sun " + p.sun));
        out += text(bx + 120, y + 28, "score " + p.score, { fill: "#fff", "font-size": 16 });
        const mine = s.trees.filter((t) => t[2] === i);
        const bySize = [0, 1, 2, 3].map((z) => mine.filter((t) => t[1] === z).length);
        out += text(bx, y + 54, "seeds " + bySize[0] + " · small " + bySize[1] + " · medium " + bySize[2] + " · large " + bySize[3], { fill: "#ccc", "font-size": 13 });
        out += text(bx, y + 74, p.waiting ? "waiting (day over for this player)" : "", { fill: "#9cc", "font-size": 13 });
      });
      out += text(bx, 450, "richness: ", { fill: "#ddd", "font-size": 13 });
      [1, 2, 3, 0].forEach((r, j) => {
        out += el("rect", { x: bx + 62 + j * 55, y: 438, width: 16, height: 16, fill: RICH[r] });
        out += text(bx + 82 + j * 55, 451, r ? String(r) : "none", { fill: "#ddd", "font-size": 13 });
      });
      out += text(bx, 480, "dashed, faded, z: dormant · darker cell: shadow", { fill: "#aaa", "font-size": 12 });
      return svg(1000, 660, out);
    },
    info: (s) => "day " + s.day + " · sun direction " + s.sun_direction + " · nutrients " + s.nutrients,
  };

  // ---- Zuniq ---------------------------------------------------------------------------------
  const ZUNIQ = {
    scores: () => null,
    active: () => [true, true],
    // Walls placed up to frame k, each with the player who placed it and the frame.
    placed(frames, k) {
      const by = {}, zonesBy = {};
      for (let j = 1; j <= k; j++) {
        const before = frames[j - 1].state, after = frames[j].state;
        for (const w of after.walls) if (!(w in by)) by[w] = { player: before.to_move, frame: j };
        for (const z of after.zones) {
          const key = z.cells.join(" ");
          if (!(key in zonesBy)) zonesBy[key] = before.to_move;
        }
      }
      return { by: by, zonesBy: zonesBy };
    },
    draw(rec, frames, k) {
      const s = frames[k].state, S = 100, ox = 60, oy = 60;
      const hist = this.placed(frames, k);
      const rowOf = (ch) => ch.charCodeAt(0) - 65;
      let out = el("rect", { x: 0, y: 0, width: 1000, height: 640, fill: "#f3efe4" });
      for (const z of s.zones) {
        const owner = hist.zonesBy[z.cells.join(" ")];
        let g = "";
        for (const c of z.cells) {
          g += el("rect", { x: ox + (+c[1] - 1) * S + 4, y: oy + rowOf(c) * S + 4, width: S - 8, height: S - 8, fill: owner === undefined ? "#bbb" : COLORS[owner], opacity: 0.3 });
        }
        const c0 = z.cells[0];
        g += text(ox + (+c0[1] - 1) * S + S / 2, oy + rowOf(c0) * S + S / 2 + 12, String(z.size), { "text-anchor": "middle", "font-size": 36, "font-weight": 700, fill: "#333" });
        out += el("g", { d_kind: "zone", d_size: z.size, d_cells: z.cells.join(" ") }, g);
      }
      for (let r = 0; r < 5; r++) {
        for (let c = 0; c < 5; c++) {
          out += text(ox + c * S + 6, oy + r * S + 16, String.fromCharCode(65 + r) + (c + 1), { "font-size": 11, fill: "#999" });
        }
      }
      const placed = {};
      for (const w of s.walls) placed[w] = true;
      const lastWall = k > 0 ? s.walls.find((w) => hist.by[w] && hist.by[w].frame === k) : undefined;
      const wallEnds = (w) => {
        const r = rowOf(w), c = +w[1] - 1;
        return w[2] === "h" ? [ox + c * S, oy + r * S, ox + (c + 1) * S, oy + r * S] : [ox + c * S, oy + r * S, ox + c * S, oy + (r + 1) * S];
      };
      for (let r = 0; r < 6; r++) {
        for (let c = 0; c < 6; c++) {
          const names = [];
          if (c < 5) names.push(String.fromCharCode(65 + r) + (c + 1) + "h");
          if (r < 5) names.push(String.fromCharCode(65 + r) + (c + 1) + "v");
          for (const w of names) {
            if (placed[w]) continue;
            const e = wallEnds(w);
            out += el("line", { x1: e[0], y1: e[1], x2: e[2], y2: e[3], stroke: "#d6d0c0", stroke_width: 2, stroke_dasharray: "6 6" });
          }
        }
      }
      for (const w of s.walls) {
        const e = wallEnds(w), who = hist.by[w] ? hist.by[w].player : null, last = w === lastWall;
        if (last) out += el("line", { x1: e[0], y1: e[1], x2: e[2], y2: e[3], stroke: "#ffd23f", stroke_width: 20, stroke_linecap: "round" });
        out += el("line", {
          x1: e[0], y1: e[1], x2: e[2], y2: e[3], stroke: who === null ? "#333" : COLORS[who], stroke_width: 9, stroke_linecap: "round",
          d_kind: "wall", d_name: w, d_by: who === null ? "" : who, d_last: last ? 1 : 0,
        });
      }
      for (let r = 0; r < 6; r++) {
        for (let c = 0; c < 6; c++) {
          out += el("circle", { cx: ox + c * S, cy: oy + r * S, r: 6, fill: "#333" });
          if (r === 0) out += text(ox + c * S - 4, oy - 18, String(c + 1), { "font-size": 16, fill: "#555" });
        }
        out += text(ox - 40, oy + r * S + 6, String.fromCharCode(65 + r), { "font-size": 16, fill: "#555" });
      }
      const bx = 640;
      out += text(bx, 80, "ply " + s.ply + " · " + s.walls.length + " walls", { "font-size": 22, "font-weight": 700 });
      out += text(bx, 112, s.finished ? "game over" : "to move: player " + s.to_move, { "font-size": 17 });
      const sizes = s.zones.length ? s.zones.map((z) => z.size).join(", ") : "none closed yet";
      out += el("text", { x: bx, y: 140, "font-size": 15, d_kind: "zones-label" }, esc("open cells " + s.open_cells + " · zone sizes: " + sizes));
      [0, 1].forEach((i) => {
        out += el("rect", { x: bx, y: 170 + i * 40, width: 22, height: 22, fill: COLORS[i] });
        out += text(bx + 32, 187 + i * 40, "player " + i + (s.claims[i] !== null ? " · claimed victory at ply " + s.claims[i] : ""), { "font-size": 15 });
      });
      out += text(bx, 270, "coloured walls and zones: who placed / closed them", { "font-size": 13, fill: "#666" });
      out += text(bx, 290, "yellow: the wall of this turn", { "font-size": 13, fill: "#666" });
      return svg(1000, 640, out);
    },
    info: (s) => (s.finished ? "finished" + (s.winner !== null ? ", winner player " + s.winner : "") : "player " + s.to_move + " to move"),
  };

  // ---- Olymbits ------------------------------------------------------------------------------
  const GAME_NAMES = { hurdles: "Hurdle race", archery: "Archery", skating: "Roller speed skating", diving: "Diving" };
  function olymbitsScore(medals) {
    return medals.reduce((acc, m) => acc * (3 * m[0] + m[1]), 1);
  }
  const OLYMBITS = {
    scores: (s) => s.medals.map(olymbitsScore),
    active: (s) => s.active,
    draw(rec, frames, k) {
      const s = frames[k].state, n = s.active.length;
      let out = el("rect", { x: 0, y: 0, width: 1000, height: 660, fill: "#eef1f5" });
      const panels = [[10, 10], [505, 10], [10, 335], [505, 335]];
      s.games.forEach((g, gi) => {
        const px = panels[gi][0], py = panels[gi][1], W = 485, H = 315;
        let p = el("rect", { x: px, y: py, width: W, height: H, rx: 10, fill: "#fff", stroke: "#c8cdd6" });
        p += text(px + 12, py + 24, GAME_NAMES[g.type] || g.type, { "font-size": 17, "font-weight": 700 });
        const state = g.should_reset ? "run over · medals given · new run next turn" : g.resetting ? "new run (reset turn)" : "";
        if (state) p += el("text", { x: px + W - 12, y: py + 24, "font-size": 12, fill: "#a16207", "text-anchor": "end", d_kind: "label" }, esc(state));
        // Medals of this mini-game, per player.
        for (let i = 0; i < n; i++) {
          const m = s.medals[i][gi], y = py + H - 14 - (n - 1 - i) * 20;
          p += el("g", { d_kind: "medals", d_player: i, d_game: gi, d_gold: m[0], d_silver: m[1], d_bronze: m[2] },
            el("circle", { cx: px + 18, cy: y - 5, r: 6, fill: COLORS[i] }) +
            text(px + 30, y, "gold " + m[0] + " · silver " + m[1] + " · bronze " + m[2] + "  (" + (3 * m[0] + m[1]) + " pts)", { "font-size": 13 }));
        }
        if (g.type === "hurdles") {
          const cw = 15, x0 = px + 12;
          for (let i = 0; i < n; i++) {
            const y = py + 50 + i * 55;
            for (let c = 0; c < g.map.length; c++) {
              p += el("rect", { x: x0 + c * cw, y: y, width: cw - 1, height: 30, fill: c === g.map.length - 1 ? "#ddd" : "#f2e3c6" });
              if (g.map[c] === "#") p += el("rect", { x: x0 + c * cw + 4, y: y - 4, width: 6, height: 38, fill: "#6b4f2a", d_kind: "hurdle", d_lane: i, d_cell: c });
            }
            const pos = Math.min(g.pos[i], g.map.length - 1);
            p += el("circle", { cx: x0 + pos * cw + cw / 2, cy: y + 15, r: 9, fill: COLORS[i], stroke: "#111", stroke_width: 2, opacity: g.dead[i] ? 0.3 : 1, d_kind: "runner", d_player: i, d_pos: g.pos[i], d_stun: g.stun[i] });
            if (g.stun[i] > 0) p += text(x0 + pos * cw + 14, y - 2, "stunned " + g.stun[i], { "font-size": 11, fill: "#b91c1c" });
          }
        } else if (g.type === "archery") {
          const cx = px + 130, cy = py + 135, sc = 4.2;
          p += el("rect", { x: cx - 20 * sc, y: cy - 20 * sc, width: 40 * sc, height: 40 * sc, fill: "#f7f7f7", stroke: "#ccc" });
          [18, 12, 6].forEach((r, j) => { p += el("circle", { cx: cx, cy: cy, r: r * sc / 1.2, fill: ["#fff", "#7dd3fc", "#f87171"][j], stroke: "#999" }); });
          for (let i = 0; i < n; i++) {
            const c = g.cursors[i];
            p += el("circle", { cx: cx + c[0] * sc, cy: cy + c[1] * sc, r: 7, fill: COLORS[i], stroke: "#111", stroke_width: 2, opacity: g.dead[i] ? 0.3 : 1, d_kind: "cursor", d_player: i, d_x: c[0], d_y: c[1] });
            p += text(px + 235, py + 60 + i * 24, "player " + i + ": (" + c[0] + ", " + c[1] + ") distance² " + (c[0] * c[0] + c[1] * c[1]), { "font-size": 12, fill: COLORS[i] });
          }
          p += el("text", { x: px + 235, y: py + 150, "font-size": 12, d_kind: "wind", d_value: g.wind }, esc("wind: " + (g.wind ? g.wind.split("").join(" ") : "—")));
          p += text(px + 235, py + 170, "current wind first; a press moves", { "font-size": 11, fill: "#666" });
          p += text(px + 235, py + 184, "the cursor that many cells", { "font-size": 11, fill: "#666" });
        } else if (g.type === "skating") {
          const cx = px + 120, cy = py + 140, r = 80;
          for (let c = 0; c < 10; c++) {
            const a = -Math.PI / 2 + c * Math.PI / 5;
            p += el("circle", { cx: cx + r * Math.cos(a), cy: cy + r * Math.sin(a), r: 14, fill: "#e5e7eb", stroke: "#9ca3af" });
            p += text(cx + r * Math.cos(a) - 3, cy + r * Math.sin(a) + 4, String(c), { "font-size": 10, fill: "#9ca3af" });
          }
          for (let i = 0; i < n; i++) {
            const a = -Math.PI / 2 + (g.pos[i] % 10) * Math.PI / 5, rr = r - 22 + i * 11;
            p += el("circle", { cx: cx + rr * Math.cos(a), cy: cy + rr * Math.sin(a), r: 7, fill: COLORS[i], stroke: "#111", stroke_width: 2, opacity: g.dead[i] ? 0.3 : 1, d_kind: "skater", d_player: i, d_pos: g.pos[i], d_risk: g.risk[i] });
            p += text(px + 250, py + 60 + i * 24, "player " + i + ": spaces " + g.pos[i] + (g.risk[i] < 0 ? " · stunned " + (-g.risk[i]) : " · risk " + g.risk[i]), { "font-size": 13, fill: COLORS[i] });
          }
          p += el("text", { x: px + 250, y: py + 150, "font-size": 14, d_kind: "order", d_value: g.order }, esc("risk order: " + g.order.split("").join(" ")));
          p += text(px + 250, py + 172, "turns left: " + g.timer, { "font-size": 14 });
        } else if (g.type === "diving") {
          const goal = g.goal.split("");
          goal.forEach((c, j) => {
            p += el("rect", { x: px + 12 + j * 30, y: py + 45, width: 26, height: 26, rx: 4, fill: j === 0 ? "#fde68a" : "#e5e7eb" });
            p += text(px + 19 + j * 30, py + 64, c, { "font-size": 15, "font-weight": 700 });
          });
          if (!goal.length) p += text(px + 12, py + 64, "—", { "font-size": 15 });
          for (let i = 0; i < n; i++) {
            const y = py + 110 + i * 40;
            p += el("g", { d_kind: "diver", d_player: i, d_points: g.points[i], d_combo: g.combo[i], opacity: g.dead[i] ? 0.3 : 1 },
              el("circle", { cx: px + 20, cy: y - 5, r: 8, fill: COLORS[i] }) +
              text(px + 36, y, "points " + g.points[i] + " · combo " + g.combo[i], { "font-size": 14 }));
          }
        }
        out += el("g", { d_kind: "minigame", d_game: gi, d_type: g.type }, p);
      });
      return svg(1000, 660, out);
    },
    info: (s) => "turn " + s.turn + " / 100 · score = product over the 4 games of (3 × gold + silver)",
  };

  // ---- Wondev Woman --------------------------------------------------------------------------
  // An enemy unit is visible to a player when it stands next to (or on the cell diagonal to) one
  // of the player's units.
  function visibleTo(units, viewer, x, y) {
    return units[viewer].some((u) => Math.max(Math.abs(u[0] - x), Math.abs(u[1] - y)) <= 1);
  }
  const WONDEV = {
    scores: (s) => s.scores,
    active: (s) => s.dead.map((d) => !d),
    draw(rec, frames, k, fog) {
      const s = frames[k].state, N = s.size, S = Math.min(86, 560 / N), ox = 40, oy = 40;
      const HEIGHT = ["#efe9d8", "#d7c79a", "#b89c5d", "#8a6a3d", "#3f4c6b"];
      let out = el("rect", { x: 0, y: 0, width: 1000, height: 640, fill: "#20262e" });
      for (let y = 0; y < N; y++) {
        for (let x = 0; x < N; x++) {
          const ch = s.grid[y][x], X = ox + x * S, Y = oy + y * S;
          if (ch === ".") {
            out += el("rect", { x: X + 2, y: Y + 2, width: S - 4, height: S - 4, fill: "#111418", d_kind: "hole", d_x: x, d_y: y });
            continue;
          }
          const h = +ch;
          out += el("rect", { x: X + 2, y: Y + 2, width: S - 4, height: S - 4, rx: 4, fill: HEIGHT[h], d_kind: "cell", d_x: x, d_y: y, d_height: h });
          if (h === 4) {
            out += el("path", { d: "M" + (X + 12) + " " + (Y + S - 16) + " A" + (S / 2 - 12) + " " + (S / 2 - 12) + " 0 0 1 " + (X + S - 12) + " " + (Y + S - 16) + " Z", fill: "#7aa2e3", stroke: "#dbeafe", stroke_width: 2, d_kind: "dome", d_x: x, d_y: y });
          } else {
            out += text(X + 8, Y + 20, String(h), { "font-size": 15, fill: h >= 3 ? "#fff" : "#444", "font-weight": 700 });
          }
          if (fog >= 0 && !visibleTo(s.units, fog, x, y)) {
            out += el("rect", { x: X + 2, y: Y + 2, width: S - 4, height: S - 4, rx: 4, fill: "#000", opacity: 0.35 });
          }
        }
      }
      // Axes: events and inputs name cells (x, y), x to the east, y to the south.
      for (let i = 0; i < N; i++) {
        out += el("text", { x: ox + i * S + S / 2, y: oy - 10, "font-size": 13, fill: "#9aa", "text-anchor": "middle", d_kind: "axis-x", d_value: i }, esc(String(i)));
        out += el("text", { x: ox - 12, y: oy + i * S + S / 2 + 5, "font-size": 13, fill: "#9aa", "text-anchor": "middle", d_kind: "axis-y", d_value: i }, esc(String(i)));
      }
      out += text(ox + N * S + 8, oy - 10, "x", { "font-size": 13, fill: "#9aa", "font-style": "italic" });
      out += text(ox - 16, oy + N * S + 18, "y", { "font-size": 13, fill: "#9aa", "font-style": "italic" });
      // The last action's target and build cells.
      for (const e of frames[k].events) {
        if (typeof e !== "object" || e === null || !e.build) continue;
        if (fog >= 0 && e.player !== fog) continue;
        const t = e.to || e.push_to;
        if (t) out += el("rect", { x: ox + t[0] * S + 5, y: oy + t[1] * S + 5, width: S - 10, height: S - 10, fill: "none", stroke: COLORS[e.player], stroke_width: 3, stroke_dasharray: "6 4", d_kind: "last-target" });
        out += el("rect", { x: ox + e.build[0] * S + 9, y: oy + e.build[1] * S + 9, width: S - 18, height: S - 18, fill: "none", stroke: "#ffd23f", stroke_width: 3, d_kind: "last-build" });
      }
      s.units.forEach((us, p) => {
        us.forEach((u, j) => {
          if (fog >= 0 && p !== fog && !visibleTo(s.units, fog, u[0], u[1])) return;
          const X = ox + u[0] * S + S / 2, Y = oy + u[1] * S + S / 2;
          out += el("g", { d_kind: "unit", d_player: p, d_unit: j, d_x: u[0], d_y: u[1], opacity: s.dead[p] ? 0.45 : 1 },
            el("circle", { cx: X, cy: Y + 4, r: S * 0.27, fill: COLORS[p], stroke: "#fff", stroke_width: 3 }) +
            text(X, Y + 10, String(j), { "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: "#fff" }));
        });
      });
      const bx = ox + N * S + 50;
      out += text(bx, 70, "round " + s.round + (s.game_over ? " · game over" : " · player " + s.to_move + " to move"), { "font-size": 20, fill: "#fff", "font-weight": 700 });
      s.scores.forEach((sc, p) => {
        out += el("rect", { x: bx, y: 100 + p * 36, width: 20, height: 20, rx: 10, fill: COLORS[p] });
        out += text(bx + 30, 116 + p * 36, "player " + p + ": " + sc + " point(s)" + (s.dead[p] ? " · eliminated" : ""), { "font-size": 16, fill: "#fff" });
      });
      out += text(bx, 200, fog >= 0 ? "fog: the board as player " + fog + " sees it" : "no fog: every unit shown", { "font-size": 14, fill: "#9cc" });
      out += text(bx, 224, "heights 0–3; blue dome = 4", { "font-size": 13, fill: "#aaa" });
      return svg(1000, 640, out);
    },
    info: (s) => "round " + s.round + (s.game_over ? " · over" : ""),
  };

  const GAME = { "xmas-rush": XMAS, photosynthesis: PHOTO, zuniq: ZUNIQ, olymbits: OLYMBITS, "wondev-woman": WONDEV };

  // ---- the side panel ------------------------------------------------------------------------
  function eventText(e) {
    if (typeof e === "string") return e;
    if (e && e.type === "MOVE&BUILD") return "$" + e.player + " unit " + e.unit + " moved to (" + e.to + ") and built on (" + e.build + ")" + (e.build_cancelled ? " — build cancelled" : "") + (e.scored ? " — scored" : "");
    if (e && e.type === "PUSH&BUILD") return "$" + e.player + " unit " + e.unit + " pushed unit " + e.pushed[1] + " of $" + e.pushed[0] + " to (" + e.push_to + ")" + (e.cancelled ? " — push cancelled" : "");
    if (e && e.type === "eliminated") return "$" + e.player + " eliminated (" + e.reason_code + "): " + e.message;
    return JSON.stringify(e);
  }
  function eventClass(t) {
    if (/invalid|timeout|not provided|deactivat|disqualif|eliminated|Bad command|accepts defeat/i.test(t)) return "bad";
    if (/medal|completed a quest|zone closed|claims victory|scored|scoring/i.test(t)) return "medal";
    if (/won!|draw!|Game over|Max turns|deadlock/i.test(t)) return "end";
    return "";
  }
  function outcomeText(rec) {
    const o = rec.outcome;
    if (!o) return rec.truncated ? "truncated trace, no outcome" : "";
    let who = "";
    if (o.winner !== undefined) who = o.winner === null ? "draw" : "player " + o.winner + " wins";
    else if (o.ranking) who = "ranking " + o.ranking.join(", ");
    return who + (o.scores ? " · scores " + o.scores.join(" : ") : "") + (o.reason ? " · " + o.reason : "") + (rec.truncated ? " (trace truncated)" : "");
  }

  // The game's seed after `prefix`, or nothing: Zuniq has no randomness (its trace seed only
  // seeded the players' bots, so showing it would suggest a different board).
  function seedText(rec, prefix) {
    if (rec.game === "zuniq" || rec.seed === undefined || rec.seed === null) return "";
    return prefix + rec.seed;
  }

  // ---- state and controls --------------------------------------------------------------------
  let current = 0, turn = 0, timer = null, fog = -1;
  const slider = $("slider");

  function render() {
    const rec = RECORDS[current], frames = framesOf(rec), game = GAME[rec.game];
    const f = frames[turn], s = f.state, names = playerNames(rec), last = turn === frames.length - 1;
    $("board").innerHTML = game.draw(rec, frames, turn, fog);
    slider.max = frames.length - 1;
    slider.value = turn;
    const label = $("turn");
    label.dataset.turn = turn;
    label.textContent = "turn " + turn + " / " + (frames.length - 1);
    let scores = game.scores(s);
    if (!scores && last && rec.outcome && rec.outcome.scores) scores = rec.outcome.scores;
    const active = game.active(s);
    let rows = "";
    names.forEach((name, i) => {
      rows += '<tr data-player="' + i + '"><td><span class="swatch" style="background:' + COLORS[i] + '"></span></td>' +
        '<td class="' + (active[i] === false ? "gone" : "") + '" title="' + esc(name) + '">' + i + " · " + esc(name.length > 28 ? name.slice(0, 27) + "…" : name) + "</td>" +
        (scores ? '<td class="score" data-score="' + esc(scores[i]) + '">' + esc(scores[i]) + "</td>" : '<td class="score pending" title="this game scores only when it ends">at the end</td>') + "</tr>";
    });
    $("players").innerHTML = rows;
    $("info").textContent = game.info(s);
    // The result belongs to the last turn: earlier turns would give the game away.
    $("outcome").textContent = last ? outcomeText(rec) : "";
    let acts = "";
    if (f.actions) {
      const who = actors(rec, frames, turn);
      f.actions.forEach((line, j) => {
        const p = who[j];
        acts += '<li data-player="' + esc(p) + '"><b style="color:' + esc(COLORS[p]) + '">' + esc(p) + "</b> " +
          (line === null ? '<span class="line none">(no answer: timeout or not asked)</span>' : '<code class="line">' + esc(line) + "</code>") + "</li>";
      });
    } else {
      acts = "<li>(initial position)</li>";
    }
    $("actions").innerHTML = acts;
    // Photosynthesis marks its error messages with colour markup (¤RED¤ … §RED§, possibly over
    // several lines): shown as the class "bad" instead of the markers.
    let evs = "", red = false;
    for (const e of f.events) {
      const raw = eventText(e);
      if (raw.indexOf("\u00a4RED\u00a4") >= 0) red = true;
      const t = raw.replace(/\u00a4[A-Z]+\u00a4|\u00a7[A-Z]+\u00a7/g, "");
      evs += '<li class="' + (red ? "bad" : eventClass(t)) + '">' + esc(t) + "</li>";
      if (raw.indexOf("\u00a7RED\u00a7") >= 0) red = false;
    }
    if (last) evs += '<li class="end">' + esc("end: " + outcomeText(rec)) + "</li>";
    $("events").innerHTML = evs || "<li>(none)</li>";
    let views = "";
    if (f.init) f.init.forEach((v, i) => { views += '<details><summary>player ' + i + ": initialisation input</summary><pre>" + esc(v) + "</pre></details>"; });
    (f.views || []).forEach((v, i) => {
      if (v === null || v === undefined || v === "") return;
      views += '<details data-player="' + i + '"><summary>player ' + i + " (" + v.split("\n").length + " lines)</summary><pre data-player=\"" + i + '">' + esc(v) + "</pre></details>";
    });
    $("views").innerHTML = views || "(nothing sent)";
    $("play").innerHTML = timer ? "&#x275A;&#x275A;" : "&#x25B6;";
    const hash = (RECORDS.length > 1 ? "game=" + current + "&" : "") + "turn=" + turn + (fog >= 0 ? "&fog=" + fog : "");
    if (location.hash.slice(1) !== hash && !PROBE) history.replaceState(null, "", "#" + hash);
  }
  function go(t) {
    const n = framesOf(RECORDS[current]).length - 1;
    turn = Math.max(0, Math.min(n, t));
    render();
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } }
  function play() {
    if (timer) { stop(); render(); return; }
    const n = framesOf(RECORDS[current]).length - 1;
    if (turn >= n) turn = 0;
    timer = setInterval(() => {
      if (turn >= framesOf(RECORDS[current]).length - 1) { stop(); render(); return; }
      go(turn + 1);
    }, +$("speed").value);
    render();
  }
  function selectGame(i) {
    stop();
    current = Math.max(0, Math.min(RECORDS.length - 1, i));
    const rec = RECORDS[current];
    $("picker").value = String(current);
    $("title").textContent = rec.game + seedText(rec, " · seed ") + " · " + playerNames(rec).join(" vs ");
    $("fog-label").hidden = rec.game !== "wondev-woman";
    if (rec.game !== "wondev-woman") fog = -1;
  }

  RECORDS.forEach((rec, i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = "game " + i + ": " + rec.game + seedText(rec, " seed ") + " (" + rec.turns.length + " turns)";
    $("picker").appendChild(o);
  });
  $("picker").hidden = RECORDS.length < 2;
  $("picker").addEventListener("change", () => { selectGame(+$("picker").value); go(0); });
  $("first").addEventListener("click", () => { stop(); go(0); });
  $("prev").addEventListener("click", () => { stop(); go(turn - 1); });
  $("next").addEventListener("click", () => { stop(); go(turn + 1); });
  $("last").addEventListener("click", () => { stop(); go(Infinity); });
  $("play").addEventListener("click", play);
  $("speed").addEventListener("change", () => { if (timer) { stop(); play(); } });
  $("fog").addEventListener("change", () => { fog = +$("fog").value; render(); });
  slider.addEventListener("input", () => { stop(); go(+slider.value); });
  document.addEventListener("keydown", (e) => {
    if (e.target && (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") && e.target !== slider) return;
    // Space and Enter on a focused button press that button, as usual.
    if (e.target && e.target.tagName === "BUTTON" && (e.key === " " || e.key === "Enter")) return;
    if (e.key === "ArrowRight") { stop(); go(turn + 1); e.preventDefault(); }
    else if (e.key === "ArrowLeft") { stop(); go(turn - 1); e.preventDefault(); }
    else if (e.key === "Home") { stop(); go(0); e.preventDefault(); }
    else if (e.key === "End") { stop(); go(Infinity); e.preventDefault(); }
    else if (e.key === " ") { play(); e.preventDefault(); }
  });

  // Deep link: #turn=N (and #game=K&turn=N on a page of several games).
  function fromHash() {
    const params = new URLSearchParams(location.hash.slice(1));
    selectGame(params.has("game") ? +params.get("game") || 0 : current);
    if (RECORDS[current].game === "wondev-woman" && ["0", "1"].indexOf(params.get("fog")) >= 0) {
      fog = +params.get("fog");
      $("fog").value = String(fog);
    }
    go(params.has("turn") ? +params.get("turn") || 0 : 0);
  }
  const PROBE = new URLSearchParams(location.hash.slice(1)).get("probe");
  window.addEventListener("hashchange", () => { if (!PROBE) fromHash(); });
  fromHash();

  // ---- probe: for the browser tests (#turn=N&probe=T1,T2,…) ------------------------------------
  // Drives the page through its own controls and writes what is drawn into #probe-result; the
  // test compares it with the trace. It checks nothing itself.
  function observe(label) {
    const data = (e) => Object.assign({}, e.dataset);
    return {
      label: label, game: current, turn: +$("turn").dataset.turn, turn_text: $("turn").textContent, slider: +slider.value,
      title: $("title").textContent, outcome: $("outcome").textContent,
      labels: labelBoxes(),
      drawn: Array.from($("board").querySelectorAll("[data-kind]")).map(data),
      scores: Array.from(document.querySelectorAll("#players [data-score]")).map((e) => e.dataset.score),
      actions: Array.from(document.querySelectorAll("#actions li[data-player]")).map((e) => ({ player: +e.dataset.player, line: e.querySelector(".line.none") ? null : e.querySelector(".line").textContent })),
      events: Array.from(document.querySelectorAll("#events li")).map((e) => ({ text: e.textContent, cls: e.className })),
      views: Array.from(document.querySelectorAll("#views pre[data-player]")).map((e) => ({ player: +e.dataset.player, text: e.textContent })),
    };
  }
  // Every text of the board with its box in the drawing's units, the mini-game panel it is in
  // (Olymbits) and the drawing's size: the test checks that none is cut off or overlaps another.
  function labelBoxes() {
    const board = $("board").querySelector("svg");
    if (!board) return null;
    const view = board.viewBox.baseVal;
    const texts = Array.from(board.querySelectorAll("text")).map((t) => {
      const b = t.getBBox(), panel = t.closest("[data-kind=minigame]");
      return { text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height, panel: panel ? +panel.dataset.game : null };
    });
    return { width: view.width, height: view.height, texts: texts };
  }
  function runProbe() {
    const out = [observe("deeplink")];
    const key = (k) => document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
    key("ArrowRight"); out.push(observe("arrow-right"));
    key("ArrowLeft"); key("ArrowLeft"); out.push(observe("arrow-left-twice"));
    $("next").click(); out.push(observe("next-button"));
    $("prev").click(); out.push(observe("prev-button"));
    for (const t of PROBE.split(",").filter((x) => x !== "")) {
      slider.value = t;
      slider.dispatchEvent(new Event("input"));
      out.push(observe("slider:" + t));
      if (RECORDS[current].game === "wondev-woman") {
        for (const p of [0, 1]) {
          $("fog").value = String(p);
          $("fog").dispatchEvent(new Event("change"));
          out.push(observe("fog" + p + ":" + t));
        }
        $("fog").value = "-1";
        $("fog").dispatchEvent(new Event("change"));
      }
    }
    // Play at the fastest speed from turn 0, then pause; the turn must stay put once paused.
    $("first").click();
    $("speed").value = "30";
    $("speed").dispatchEvent(new Event("change"));
    $("play").click();
    setTimeout(() => {
      // A short game may have played to its end already (play stops there by itself).
      if (timer) $("play").click();
      out.push(observe("played-then-paused"));
      setTimeout(() => {
        out.push(observe("after-pause"));
        const result = {
          observations: out, errors: window.viewerErrors,
          resources: performance.getEntriesByType("resource").map((e) => e.name),
          games: RECORDS.length,
        };
        const pre = document.createElement("pre");
        pre.id = "probe-result";
        pre.textContent = JSON.stringify(result);
        document.body.appendChild(pre);
      }, 300);
    }, 400);
  }
  if (PROBE !== null) runProbe();
})();
