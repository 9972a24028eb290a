/* Measurements of one slide deck, injected by tools/check_slides.py into a copy of it.
 *
 * Waits for reveal.js and MathJax, then visits every slide with all its fragments shown
 * and measures, at the deck's own size (Reveal.getConfig().width x height, before
 * reveal.js scales it to the window): content taller or wider than the slide, and
 * elements (code, outputs, equations, images, tables) that overhang the slide or scroll
 * sideways. Counts math nodes, typeset formulas, MathJax errors and raw TeX or $ left in
 * the text. Writes a JSON report as <script type="application/json" id="svmtext-slidecheck">.
 */
(function () {
  "use strict";

  function clip(s, n) {
    s = String(s).replace(/\s+/g, " ").trim();
    return s.length > n ? s.slice(0, n - 1) + "\u2026" : s;
  }

  function report(rep) {
    var s = document.createElement("script");
    s.type = "application/json";
    s.id = "svmtext-slidecheck";
    s.textContent = JSON.stringify(rep);
    document.body.appendChild(s);
  }

  function visibleText(node) {
    if (node.nodeType === 3) return node.data;
    if (node.nodeType !== 1) return "";
    var tag = node.tagName.toLowerCase();
    if (tag === "mjx-container" || tag === "script" || tag === "style" ||
        node.matches("pre, code, .jp-InputArea, .jp-OutputArea-output pre, aside.notes")) {
      return " ";
    }
    var s = "";
    for (var c = node.firstChild; c; c = c.nextSibling) s += visibleText(c);
    return s;
  }

  function measure() {
    var cfg = Reveal.getConfig();
    var W = cfg.width, H = cfg.height;
    var slides = Reveal.getSlides();
    var out = {width: W, height: H, n_slides: slides.length, total: Reveal.getTotalSlides(),
               n_horizontal: Reveal.getHorizontalSlides().length, slides: [],
               overflow: [], wide: [], text: [], math_errors: [], untypeset: 0,
               n_math: 0, n_typeset: 0, n_images: 0, broken_images: [],
               console: window.__svmtextErrors || []};
    slides.forEach(function (sec, k) {
      var idx = Reveal.getIndices(sec);
      Reveal.slide(idx.h, idx.v, Number.MAX_SAFE_INTEGER);   // every fragment shown
      sec.querySelectorAll(".fragment").forEach(function (f) { f.classList.add("visible"); });
      var title = sec.querySelector("h1, h2, h3, h4");
      var name = (k + 1) + " " + (title ? clip(title.textContent.replace(/\u00b6/g, ""), 50)
                                        : "(untitled)");
      var h = sec.scrollHeight, w = sec.scrollWidth;
      out.slides.push({n: k + 1, name: name, height: h, width: w, hash: idx.h + "/" + idx.v});
      if (h > H + 1) out.overflow.push({slide: name, height_px: h, avail_px: H});
      var left = sec.getBoundingClientRect().left;
      var scale = sec.getBoundingClientRect().width / sec.offsetWidth || 1;
      sec.querySelectorAll("pre, mjx-container[display='true'], img, table, .jp-OutputArea-output")
        .forEach(function (el) {
          var r = el.getBoundingClientRect();
          var right = (r.right - left) / scale;
          var hidden = el.scrollWidth - el.clientWidth;
          if (right > W + 1 || hidden > 1) {
            out.wide.push({slide: name, kind: el.tagName.toLowerCase(),
                           overhang_px: Math.round(Math.max(right - W, hidden)),
                           excerpt: clip(el.textContent || el.getAttribute("src") || "", 80)});
          }
        });
      var text = visibleText(sec);
      [["raw $", /\$/g], ["raw \\command", /\\[A-Za-z]+/g],
       ["raw role or directive", /\{(?:eq|ref|numref|cite(?::[a-z]+)?|prf:[a-z]+|math|admonition|code-cell|exercise|solution[-a-z]*)\}/g],
       ["raw label", /\((?:sec|eq|fig|thm|def|ex)-[a-z0-9-]+\)=/g]
      ].forEach(function (p) {
        var m = text.match(p[1]);
        if (m) out.text.push({slide: name, kind: p[0], match: m[0],
                              excerpt: clip(text.slice(Math.max(0, text.indexOf(m[0]) - 40),
                                                       text.indexOf(m[0]) + 40), 90)});
      });
    });
    out.n_typeset = document.querySelectorAll("mjx-container").length;
    document.querySelectorAll("mjx-merror, [data-mjx-error]").forEach(function (e) {
      out.math_errors.push(clip(e.getAttribute("data-mjx-error") || e.textContent, 120));
    });
    var imgs = document.querySelectorAll(".slides img");
    out.n_images = imgs.length;
    imgs.forEach(function (im) {
      if (!im.complete || !im.naturalWidth) out.broken_images.push(clip(im.src, 80));
    });
    Reveal.slide(0, 0, 0);
    return out;
  }

  function run() {
    try {
      var mj = window.MathJax && MathJax.startup && MathJax.startup.promise;
      var ready = new Promise(function (res) {
        if (window.Reveal && Reveal.isReady()) res();
        else if (window.Reveal) Reveal.on("ready", function () { res(); });
        else res();
      });
      Promise.all([ready, mj || Promise.resolve(), document.fonts ? document.fonts.ready : 0])
        .then(function () {
          if (!window.Reveal) {
            report({fatal: "reveal.js did not load", console: window.__svmtextErrors || []});
            return;
          }
          var rep = measure();
          rep.mathjax = !!mj;
          report(rep);
        })
        .catch(function (e) { report({fatal: String(e && e.stack || e)}); });
    } catch (e) {
      report({fatal: String(e && e.stack || e)});
    }
  }

  if (document.readyState === "complete") run();
  else window.addEventListener("load", run);
})();
