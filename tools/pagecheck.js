/* Measurements of one built page, injected by tools/check_pages.py into a copy of it.
 *
 * Waits for MathJax (MathJax.startup.promise), the fonts and the images, measures at
 * the window's width and writes a JSON report into the DOM as
 * a JSON script element with id svmtext-pagecheck, which Chromium's
 * --dump-dom then returns. The errors list is filled by the hook that check_pages.py
 * puts first in <head> (window.__svmtextErrors).
 */
(function () {
  "use strict";
  var BLOCKS = "p, li, dt, dd, th, td, h1, h2, h3, h4, h5, h6, figcaption, caption, " +
               "blockquote, div.line";
  var FULL_WIDTH = ".tag_full-width, .full-width, .tag_full_width, .sidebar, aside";
  var PATTERNS = [
    ["raw $", /\$/g],
    ["raw \\command", /\\[A-Za-z]+/g],
    ["raw role", /\{(?:eq|ref|numref|cite(?::[a-z]+)?|prf:ref|doc|term|math|download)\}/g],
    /* a Markdown table left as text: its |---| rule (--- may become an em dash) */
    ["raw table", /\|\s*:?(?:-{3,}|\u2014+):?\s*\|/g]
  ];

  function clip(s, n) {
    s = String(s).replace(/\s+/g, " ").trim();
    return s.length > n ? s.slice(0, n - 1) + "\u2026" : s;
  }

  function where(el) {
    var parts = [];
    var box = el.closest("div.proof, div.admonition, div.exercise, div.solution, figure, table");
    if (box) {
      var t = box.querySelector(".admonition-title, figcaption, caption");
      var label = box.id ? "#" + box.id : "";
      if (t) parts.push(clip(t.textContent, 50) + (label ? " " + label : ""));
      else if (label) parts.push(label);
    }
    var sec = el.closest("section");
    while (sec && !sec.querySelector(":scope > h1, :scope > h2, :scope > h3, :scope > h4, " +
                                     ":scope > h5, :scope > h6")) {
      sec = sec.parentElement && sec.parentElement.closest("section");
    }
    if (sec) {
      var h = sec.querySelector("h1, h2, h3, h4, h5, h6");
      parts.push("\u00a7 " + (h ? clip(h.textContent.replace(/[#\s\u00b6]+$/, ""), 50) : "") +
                 (sec.id ? " #" + sec.id : ""));
    }
    return parts.join(" | ");
  }

  /* Text of a block with math as [math] and code as `code`; nested blocks left out. */
  function serial(node, root) {
    if (node.nodeType === 3) return node.data;
    if (node.nodeType !== 1) return "";
    if (node !== root && node.matches(BLOCKS)) return " ";
    var tag = node.tagName.toLowerCase();
    if (tag === "mjx-container") return "[math]";
    if (node.matches("script, style, noscript, template, textarea, .headerlink, " +
                     "mjx-assistive-mml, .copybtn, button")) return "";
    if (node.matches("pre, code, kbd, samp, .highlight")) return "`code`";
    if (node.classList.contains("math") && node.querySelector("mjx-container")) return "[math]";
    var s = "";
    for (var c = node.firstChild; c; c = c.nextSibling) s += serial(c, root);
    return s;
  }

  function column(art) {
    var r = art.getBoundingClientRect();
    var cs = getComputedStyle(art);
    var left = r.left + parseFloat(cs.paddingLeft || 0);
    var right = r.right - parseFloat(cs.paddingRight || 0);
    return {left: left, right: right, width: right - left};
  }

  function measure(mathjaxOk) {
    /* a reader can open every dropdown (solutions, hidden cells): measure them open */
    document.querySelectorAll("details").forEach(function (d) { d.open = true; });
    document.querySelectorAll(".toggle-hidden").forEach(function (el) {
      el.classList.remove("toggle-hidden");
    });
    var art = document.querySelector("article.bd-article") ||
              document.querySelector("main article") || document.querySelector("main") ||
              document.body;
    var col = column(art);
    var rep = {column_px: Math.round(col.width), window_px: window.innerWidth,
               mathjax: mathjaxOk, text: [], untypeset: [], math_errors: [], wide_equations: [],
               wide_outputs: [], long_outputs: [], figures: [], console: [],
               cell_errors: [], stderr: [], wide_code: [], broken_images: [],
               n_math: 0, n_display: 0, n_images: 0};

    /* 1. raw TeX, $ and MyST roles in the visible text outside math and code */
    var blocks = art.querySelectorAll(BLOCKS);
    for (var i = 0; i < blocks.length; i++) {
      var b = blocks[i];
      if (b.closest("pre, code, mjx-container, .cell_input, .highlight, script, style")) continue;
      var s = serial(b, b);
      for (var k = 0; k < PATTERNS.length; k++) {
        var re = PATTERNS[k][1];
        re.lastIndex = 0;
        var m = re.exec(s);
        if (m) {
          var a = Math.max(0, m.index - 45), e = Math.min(s.length, m.index + 45);
          rep.text.push({kind: PATTERNS[k][0], match: m[0],
                         excerpt: clip(s.slice(a, e), 100), where: where(b)});
          break;
        }
      }
    }

    /* 2. math: typeset, errors, undefined macros */
    var texOf = {get: function (c) {
      var m = c.closest("[data-svmtext-tex]");
      return m ? m.getAttribute("data-svmtext-tex").replace(/^\s*\\[\[(]|\\[\])]\s*$/g, "") : "";
    }};
    var maths = art.querySelectorAll(".math");
    rep.n_math = maths.length;
    maths.forEach(function (el) {
      if (!el.querySelector("mjx-container") && el.tagName.toLowerCase() !== "mjx-container") {
        rep.untypeset.push({tex: clip(el.textContent, 90), where: where(el)});
      }
    });
    art.querySelectorAll("mjx-container").forEach(function (c) {
      var tex = clip(texOf.get(c) || "", 90);
      c.querySelectorAll("mjx-merror, [data-mjx-error]").forEach(function (e) {
        rep.math_errors.push({kind: "MathJax error",
                              message: clip(e.getAttribute("data-mjx-error") || e.textContent, 90),
                              tex: tex, where: where(c)});
      });
      c.querySelectorAll("mjx-assistive-mml mtext, mjx-assistive-mml merror").forEach(function (t) {
        var txt = t.textContent.trim();
        if (/^\\[A-Za-z]+$/.test(txt) || t.getAttribute("mathcolor") === "red") {
          rep.math_errors.push({kind: "undefined macro", message: txt, tex: tex, where: where(c)});
        }
      });
    });

    /* 3. display equations wider than their container */
    var displays = art.querySelectorAll('mjx-container[display="true"]');
    rep.n_display = displays.length;
    displays.forEach(function (c) {
      var block = c.closest("div.math") || c.parentElement;
      var math = c.querySelector("mjx-math") || c;
      var need = Math.max(c.scrollWidth, math.getBoundingClientRect().width);
      var avail = Math.min(c.clientWidth, block.clientWidth || c.clientWidth);
      var over = Math.max(need - avail, block.scrollWidth - block.clientWidth,
                          c.getBoundingClientRect().right - col.right);
      if (over > 1 && !c.closest(FULL_WIDTH)) {
        var no = block.querySelector(".eqno");
        rep.wide_equations.push({
          number: no ? clip(no.textContent.replace(/[#\s\u00b6]+$/, ""), 12) : "",
          label: (block.id || "").replace(/^equation-/, ""),
          width_px: Math.round(need), avail_px: Math.round(avail), over_px: Math.round(over),
          tex: clip(texOf.get(c) || "", 110), where: where(c)});
      }
    });

    /* 4. outputs, code and tables wider than the text column; long outputs */
    var reported = [];
    art.querySelectorAll(".cell_output > *, .cell_output pre, .cell_output table, " +
                         "pre, table, .output").forEach(function (el) {
      if (reported.some(function (r) { return r.contains(el) || el.contains(r); })) return;
      var full = el.closest(FULL_WIDTH);
      var r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) return;   // hidden (e.g. collapsed)
      var scroll = el.scrollWidth - el.clientWidth;
      var stick = full ? 0 : r.right - col.right;
      if (scroll > 1 || stick > 1) {
        var kind = el.closest(".cell_output") ? "output" :
                   el.closest(".cell_input") ? "code" : el.tagName.toLowerCase();
        var longest = el.textContent.split("\n").reduce(function (a, l) {
          return l.length > a.length ? l : a; }, "");
        (kind === "code" ? rep.wide_code : rep.wide_outputs).push({
          kind: kind, hidden_px: Math.round(Math.max(scroll, stick)),
          chars: longest.length, excerpt: clip(longest, 90), where: where(el)});
        reported.push(el);
      }
    });
    art.querySelectorAll(".cell_output pre").forEach(function (el) {
      var lines = el.textContent.replace(/\n$/, "").split("\n").length;
      if (lines > 40) {
        rep.long_outputs.push({lines: lines, excerpt: clip(el.textContent, 80), where: where(el)});
      }
    });

    /* errors raised by a cell, and stderr (warnings, progress bars) among the outputs */
    art.querySelectorAll(".cell_output .output.traceback, .cell_output .output.error")
      .forEach(function (el) {
        var pre = el.querySelector("pre") || el;
        var lines = pre.textContent.trim().split("\n").filter(function (l) { return l.trim(); });
        rep.cell_errors.push({excerpt: clip(lines.length ? lines[lines.length - 1] : "", 120),
                              where: where(el)});
      });
    art.querySelectorAll(".cell_output .output.stderr").forEach(function (el) {
      rep.stderr.push({excerpt: clip(el.textContent, 100), where: where(el)});
    });

    /* 5. figures: caption, alt text, label, legible width */
    var imgs = art.querySelectorAll("img");
    imgs.forEach(function (img) {
      if (img.closest(".bd-header, nav, .navbar-brand")) return;
      rep.n_images += 1;
      var fig = img.closest("figure");
      var cap = fig && fig.querySelector("figcaption");
      var alt = img.getAttribute("alt");
      var src = (img.getAttribute("src") || "").split("/").pop();
      var problems = [];
      if (!cap || !cap.textContent.trim()) problems.push("no caption");
      if (alt === null || !alt.trim()) problems.push("no alt text");
      else if (/\.(png|jpe?g|gif|svg|webp)$/i.test(alt.trim()) || /_images\//.test(alt) ||
               /^[0-9a-f]{16,}/i.test(alt.trim())) problems.push("alt text is a file name");
      if (!fig || !fig.id || /^id\d+$/.test(fig.id)) problems.push("no label");
      var shown = img.getBoundingClientRect().width;
      var natural = img.naturalWidth;
      var ratio = natural ? shown / natural : 0;
      if (!natural) { /* reported once, under broken_images (every image of the page) */ }
      else if (ratio < 0.75 && !img.closest(FULL_WIDTH)) {
        problems.push("shrunk to " + Math.round(100 * ratio) + "% (" + natural + " px -> " +
                      Math.round(shown) + " px; 10 pt text ~" + (13.9 * ratio).toFixed(1) + " px)");
      }
      if (problems.length) {
        rep.figures.push({problems: problems, src: src, label: fig && fig.id || "",
                          caption: cap ? clip(cap.textContent, 70) : "",
                          where: where(img)});
      }
    });

    /* 6. every image of the page (text, outputs, logo, navigation) loaded */
    Array.prototype.forEach.call(document.images, function (img) {
      if (img.naturalWidth > 0) return;
      var src = img.getAttribute("src") || "";
      rep.broken_images.push({src: clip(src, 120), alt: clip(img.getAttribute("alt") || "", 60),
                              where: art.contains(img) ? where(img) : "outside the text"});
    });

    rep.console = (window.__svmtextErrors || []).slice(0, 50);
    return rep;
  }

  function report(mathjaxOk) {
    var rep;
    try { rep = measure(mathjaxOk); } catch (err) { rep = {fatal: String(err && err.stack || err)}; }
    var el = document.createElement("script");
    el.type = "application/json";
    el.id = "svmtext-pagecheck";
    el.textContent = JSON.stringify(rep).replace(/</g, "\\u003c");
    document.body.appendChild(el);
  }

  function settle(mathjaxOk) {
    var imgs = Array.prototype.slice.call(document.images).map(function (im) {
      return im.complete ? Promise.resolve() :
        new Promise(function (res) { im.addEventListener("load", res); im.addEventListener("error", res); });
    });
    var fonts = document.fonts ? document.fonts.ready : Promise.resolve();
    var limit = new Promise(function (res) { setTimeout(res, 5000); });
    Promise.race([Promise.all(imgs.concat([fonts])), limit]).then(function () {
      /* no requestAnimationFrame: headless virtual time need not produce frames */
      setTimeout(function () { report(mathjaxOk); }, 100);
    });
  }

  function waitMathJax() {
    var t0 = Date.now();
    var hasMath = document.querySelector(".math") !== null;
    (function poll() {
      var mj = window.MathJax;
      if (mj && mj.startup && mj.startup.promise) {
        mj.startup.promise.then(function () { settle(true); },
                                function (err) {
                                  (window.__svmtextErrors || []).push("MathJax: " + err);
                                  settle(false);
                                });
      } else if (!hasMath || Date.now() - t0 > 8000) {
        settle(!hasMath);
      } else {
        setTimeout(poll, 50);
      }
    })();
  }

  /* the TeX source of each math node, kept before MathJax replaces it */
  document.querySelectorAll(".math").forEach(function (el) {
    var tex = "";
    for (var c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) tex += c.data;
    el.setAttribute("data-svmtext-tex", tex.trim());
  });

  if (document.readyState === "complete") waitMathJax();
  else window.addEventListener("load", waitMathJax);
})();
