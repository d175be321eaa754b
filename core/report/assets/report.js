/* core/report/assets/report.js — the little the HTML report does in the
   browser (report_html.c): view tabs; pan (drag) and zoom (wheel, buttons)
   of each inline SVG; dimming the picture by severity; the findings table
   sorted by a click on a header and filtered by rule, severity and text
   (also from the address: #rule=deadlock.*&severity=error&q=spine, and
   #sort=rule or #sort=-severity for a sorted table, #view=rails);
   a click on a row outlines the elements of that finding in the picture,
   a click on an element filters the table to its findings.
   Embedded at build time (cmake/embed.cmake); no library, no network. */
(function () {
  "use strict";
  var SEV_RANK = { error: 3, warning: 2, info: 1 };

  /* ---- view tabs -------------------------------------------------------- */
  function showView(name) {
    document.querySelectorAll(".view").forEach(function (v) {
      v.classList.toggle("active", v.getAttribute("data-view") === name);
    });
    document.querySelectorAll(".tabs button").forEach(function (b) {
      b.classList.toggle("active", b.getAttribute("data-view") === name);
    });
  }
  document.querySelectorAll(".tabs button").forEach(function (b) {
    b.addEventListener("click", function () {
      showView(b.getAttribute("data-view"));
    });
  });

  /* ---- pan and zoom: the SVG viewBox ------------------------------------ */
  function panZoom(canvas) {
    var svg = canvas.querySelector("svg");
    if (!svg) return null;
    var vb = svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
    var home = vb.slice();
    var drag = null;
    function apply() { svg.setAttribute("viewBox", vb.join(" ")); }
    function zoom(f, cx, cy) {
      var nw = vb[2] * f, nh = vb[3] * f;
      vb[0] = cx - (cx - vb[0]) * f;
      vb[1] = cy - (cy - vb[1]) * f;
      vb[2] = nw; vb[3] = nh;
      apply();
    }
    function toSvg(ev) {
      var r = svg.getBoundingClientRect();
      var s = Math.max(vb[2] / r.width, vb[3] / r.height);
      var ox = vb[0] + (vb[2] - r.width * s) / 2;
      var oy = vb[1]; /* preserveAspectRatio xMidYMin: top-aligned */
      return [ox + (ev.clientX - r.left) * s, oy + (ev.clientY - r.top) * s, s];
    }
    canvas.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      var p = toSvg(ev);
      zoom(ev.deltaY < 0 ? 0.85 : 1 / 0.85, p[0], p[1]);
    }, { passive: false });
    canvas.addEventListener("mousedown", function (ev) {
      drag = { x: ev.clientX, y: ev.clientY, vb: vb.slice(), s: toSvg(ev)[2] };
      canvas.classList.add("dragging");
    });
    window.addEventListener("mousemove", function (ev) {
      if (!drag) return;
      vb[0] = drag.vb[0] - (ev.clientX - drag.x) * drag.s;
      vb[1] = drag.vb[1] - (ev.clientY - drag.y) * drag.s;
      apply();
    });
    window.addEventListener("mouseup", function () {
      drag = null;
      canvas.classList.remove("dragging");
    });
    return {
      zoomIn: function () { zoom(0.8, vb[0] + vb[2] / 2, vb[1] + vb[3] / 2); },
      zoomOut: function () { zoom(1.25, vb[0] + vb[2] / 2, vb[1] + vb[3] / 2); },
      reset: function () { vb = home.slice(); apply(); }
    };
  }
  document.querySelectorAll(".view").forEach(function (view) {
    var canvas = view.querySelector(".canvas");
    var pz = canvas ? panZoom(canvas) : null;
    view.querySelectorAll("[data-act]").forEach(function (b) {
      b.addEventListener("click", function () {
        if (pz && pz[b.getAttribute("data-act")]) pz[b.getAttribute("data-act")]();
      });
    });
    view.querySelectorAll("input[data-dim]").forEach(function (cb) {
      cb.addEventListener("change", function () {
        canvas.classList.toggle(cb.getAttribute("data-dim"), !cb.checked);
      });
    });
  });

  /* ---- findings table: sort ------------------------------------------- */
  var table = document.getElementById("findings-table");
  if (!table) return;
  var tbody = table.tBodies[0];
  function cellKey(tr, col) {
    var td = tr.cells[col];
    var k = td.getAttribute("data-key");
    if (k !== null) return isNaN(Number(k)) ? k : Number(k);
    return td.textContent.toLowerCase();
  }
  table.querySelectorAll("th").forEach(function (th, col) {
    th.addEventListener("click", function () {
      var asc = !th.classList.contains("sorted-asc");
      table.querySelectorAll("th").forEach(function (h) {
        h.classList.remove("sorted-asc", "sorted-desc");
      });
      th.classList.add(asc ? "sorted-asc" : "sorted-desc");
      var rows = Array.prototype.slice.call(tbody.rows);
      rows.sort(function (a, b) {
        var x = cellKey(a, col), y = cellKey(b, col);
        var c = x < y ? -1 : x > y ? 1 : 0;
        if (c === 0) c = Number(a.getAttribute("data-f")) - Number(b.getAttribute("data-f"));
        return asc ? c : -c;
      });
      rows.forEach(function (r) { tbody.appendChild(r); });
    });
  });

  /* sort by the column whose header is @name (as a click would) */
  function sortBy(name, desc) {
    table.querySelectorAll("th").forEach(function (th) {
      if (th.textContent.trim().toLowerCase().indexOf(name.toLowerCase()) !== 0) return;
      th.classList.remove("sorted-asc", "sorted-desc");
      if (desc) th.classList.add("sorted-asc"); /* the click flips it */
      th.click();
    });
  }

  /* ---- findings table: filter ----------------------------------------- */
  var selRule = document.getElementById("filter-rule");
  var selSev = document.getElementById("filter-severity");
  var text = document.getElementById("filter-text");
  var shown = document.getElementById("filter-shown");
  var only = null; /* finding numbers picked in the picture */
  function globRe(p) {
    return new RegExp("^" + p.replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*").replace(/\?/g, ".") + "$");
  }
  /* a row matches a rule by its own rule or by a consequence attached
     under it (data-related-rules): one cause, one row */
  function ruleMatch(re, tr) {
    var rules = [tr.getAttribute("data-rule")].concat(
      (tr.getAttribute("data-related-rules") || "").split(" "));
    return rules.some(function (r) { return r && re.test(r); });
  }
  function filter() {
    var rule = selRule.value, sev = selSev.value;
    var q = text.value.toLowerCase(), re = rule ? globRe(rule) : null;
    var n = 0;
    Array.prototype.forEach.call(tbody.rows, function (tr) {
      var ok = (!re || ruleMatch(re, tr)) &&
        (!sev || SEV_RANK[tr.getAttribute("data-sev")] >= SEV_RANK[sev]) &&
        (!q || tr.textContent.toLowerCase().indexOf(q) >= 0) &&
        (!only || only.indexOf(tr.getAttribute("data-f")) >= 0);
      tr.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = n + " of " + tbody.rows.length + " shown";
  }
  [selRule, selSev].forEach(function (el) { el.addEventListener("change", filter); });
  text.addEventListener("input", filter);
  document.getElementById("filter-clear").addEventListener("click", function () {
    selRule.value = ""; selSev.value = ""; text.value = ""; only = null;
    filter();
  });
  function fromHash() {
    var h = decodeURIComponent(location.hash.replace(/^#/, ""));
    h.split("&").forEach(function (kv) {
      var i = kv.indexOf("="); if (i < 0) return;
      var k = kv.slice(0, i), v = kv.slice(i + 1);
      if (k === "rule") {
        if (!Array.prototype.some.call(selRule.options, function (o) { return o.value === v; })) {
          var o = document.createElement("option"); o.value = v; o.textContent = v;
          selRule.appendChild(o);
        }
        selRule.value = v;
      } else if (k === "severity") selSev.value = v;
      else if (k === "q") text.value = v;
      else if (k === "view") showView(v);
      else if (k === "sort") sortBy(v.replace(/^-/, ""), v.charAt(0) === "-");
    });
    filter();
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();

  /* ---- table <-> picture ---------------------------------------------- */
  function outline(f) {
    document.querySelectorAll(".canvas .hl").forEach(function (e) {
      e.classList.remove("hl");
    });
    if (f) document.querySelectorAll(".canvas .f" + f).forEach(function (e) {
      e.classList.add("hl");
    });
  }
  Array.prototype.forEach.call(tbody.rows, function (tr) {
    tr.addEventListener("click", function () {
      var was = tr.classList.contains("selected");
      Array.prototype.forEach.call(tbody.rows, function (r) { r.classList.remove("selected"); });
      if (!was) tr.classList.add("selected");
      outline(was ? null : tr.getAttribute("data-f"));
    });
  });
  document.querySelectorAll(".canvas g").forEach(function (g) {
    var fs = (g.getAttribute("class") || "").split(/\s+/).filter(function (c) {
      return /^f\d+$/.test(c);
    });
    if (!fs.length) return;
    g.style.cursor = "pointer";
    g.addEventListener("click", function (ev) {
      ev.stopPropagation();
      only = fs.map(function (c) { return c.slice(1); });
      filter();
      document.getElementById("findings").scrollIntoView();
    });
  });
})();
