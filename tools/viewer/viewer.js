/* The Linkage viewer page's script (lib/io/view.c inlines it after three.js
 * and OrbitControls; the data is the JSON in #lk-data, see view.c).
 * Linkage's world is z-up, metres; three.js draws it as it is, with the
 * camera's up set to +z.
 *
 * URL parameters (after ? or #, joined by &), for sharing a moment and for
 * the browser test (tests/tools/test_viewer.c):
 *   t=1.5          start paused at that time (s)
 *   scene=2        the scene shown (0-based)
 *   cam=x|-x|y|-y|z  an orthographic camera looking along -axis (from
 *                  +axis towards the centre), with center=x,y,z and
 *                  height=h (m of world in the window's height)
 *   flat=1         unlit colours, no grid, contacts, frames or panels: every
 *                  link in its palette colour on white
 *   contacts=0 forces=0 frames=1 names=1   the toggles' first state */
(function () {
  'use strict';
  var errors = window.lkErrors || [];
  var DATA = JSON.parse(document.getElementById('lk-data').textContent);

  var params = {};
  (location.search.slice(1) + '&' + location.hash.slice(1)).split('&').forEach(function (kv) {
    var i = kv.indexOf('=');
    if (kv) params[decodeURIComponent(i < 0 ? kv : kv.slice(0, i))] = i < 0 ? '1' : decodeURIComponent(kv.slice(i + 1));
  });
  function flag(name, dflt) { return name in params ? params[name] !== '0' : dflt; }
  var flat = flag('flat', false);

  /* Link colours (Tableau 10 without its red and green, which mark contact
   * states); world geoms grey. Link l gets PALETTE[(l - 1) % 8]. */
  var PALETTE = [0x4e79a7, 0xf28e2b, 0x76b7b2, 0xedc948, 0xb07aa1, 0x9c755f, 0xff9da7, 0xbab0ac];
  var WORLD = 0xcfd2d6;
  var STATE_COLOR = [0x8c8c8c, 0x2ca02c, 0xd62728]; /* open, static, dynamic */
  var STATE_NAME = ['open', 'static', 'dynamic'];
  /* Floats per contact (lib/io/view.c): position, normal force on `link`,
   * friction force on `link`, state, link, other. */
  var CF = 12;

  /* The force between two bodies in one frame, drawn as one pair of
   * arrows: the resultant normal and friction forces of their contacts,
   * at the normal-force-weighted centre of the points (their centre when
   * none carries force). Contacts are drawn on one of the two bodies (the
   * sign): the one with more contacts carrying force in the frame (a held
   * object, not the pad holding it), never the world. Fills d.pair, PF
   * numbers a pair: point (3), normal force (3), friction (3), state (the
   * most: open 0 < static 1 < dynamic 2), weight (the sum of normal
   * forces the point is averaged by); returns how many. */
  var PF = 11;
  var touching = new Int32Array(1), pairKey = [];
  function pairs(d, f) {
    var c0 = d.coff[f], c1 = d.coff[f + 1], np = 0, P = d.pair;
    if (touching.length < d.nl) touching = new Int32Array(d.nl);
    for (var l = 0; l < d.nl; l++) touching[l] = 0;
    for (var j = c0; j < c1; j++)
      if (d.contact[j * CF + 9] > 0) touching[d.contact[j * CF + 10]]++, touching[d.contact[j * CF + 11]]++;
    for (j = c0; j < c1; j++) {
      var c = j * CF, a = d.contact[c + 10], b = d.contact[c + 11];
      var sign = b !== 0 && touching[b] > touching[a] ? -1 : 1, key = sign > 0 ? a * d.nl + b : b * d.nl + a;
      for (var q = 0; q < np && pairKey[q] !== key; q++);
      var o = q * PF;
      if (q === np) {
        pairKey[np++] = key;
        for (var k = 0; k < PF; k++) P[o + k] = 0;
      }
      var fn = Math.hypot(d.contact[c + 3], d.contact[c + 4], d.contact[c + 5]);
      for (k = 0; k < 3; k++) {
        P[o + k] += d.contact[c + k] * (fn > 0 ? fn : 1e-9);
        P[o + 3 + k] += sign * d.contact[c + 3 + k];
        P[o + 6 + k] += sign * d.contact[c + 6 + k];
      }
      P[o + 9] = Math.max(P[o + 9], d.contact[c + 9]);
      P[o + 9 + 1] += fn > 0 ? fn : 1e-9;
    }
    for (q = 0; q < np; q++)
      for (k = 0; k < 3; k++) P[q * PF + k] /= P[q * PF + 10];
    return np;
  }

  function bytes(s) {
    var bin = atob(s), u = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) u[i] = bin.charCodeAt(i);
    return u.buffer;
  }

  /* ------------------------------------------------------------- data */
  var scenes = DATA.scenes.map(function (s) {
    var nl = s.links.length;
    var d = {
      src: s, nl: nl, nframes: s.nframes,
      t: new Float64Array(bytes(s.t)),
      pose: new Float32Array(bytes(s.pose)),
      slip: new Uint8Array(bytes(s.slip)),
      report: new Int32Array(bytes(s.report)),
      residual: new Float32Array(bytes(s.residual)),
      coff: new Uint32Array(bytes(s.coff)),
      contact: new Float32Array(bytes(s.contact)),
      rest: new Float32Array(bytes(s.rest))
    };
    if (d.nframes === 0) { /* the model at rest */
      d.nframes = 1; d.t = new Float64Array([0]); d.pose = d.rest;
      d.slip = new Uint8Array(nl); d.report = new Int32Array(s.report_fields.length);
      d.residual = new Float32Array(1); d.coff = new Uint32Array(2);
    }
    d.nrep = s.report_fields.length;
    d.field = {};
    s.report_fields.forEach(function (f, i) { d.field[f] = i; });
    /* Cumulative sums of the report counters, for "so far" figures. */
    d.total = new Float64Array(d.nframes * d.nrep);
    for (var f = 0; f < d.nframes; f++)
      for (var k = 0; k < d.nrep; k++)
        d.total[f * d.nrep + k] = (f ? d.total[(f - 1) * d.nrep + k] : 0) + d.report[f * d.nrep + k];
    /* Extents: of the mechanism at the first frame (the camera frames it,
     * arrows scale with it) and of everything over every frame (the floor
     * covers it); link origins grown by each link's geoms. */
    var lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity], reach = new Float64Array(nl);
    var alo = lo.slice(), ahi = hi.slice();
    s.geoms.forEach(function (g) {
      if (g.type === 'plane') return;
      var r = Math.hypot(g.pose[0], g.pose[1], g.pose[2]) + (g.type === 'mesh' ? g.radius || 0 :
        Math.hypot(g.size[0], g.size[1] || g.size[0], g.size[2] || 0) + (g.type === 'capsule' ? g.size[0] : 0));
      reach[g.link] = Math.max(reach[g.link], r);
    });
    d.centroid = new Float64Array(3 * d.nframes);
    for (f = 0; f < d.nframes; f++)
      for (var l = 0; l < nl; l++) {
        if (l === 0 && reach[0] === 0) continue;
        for (k = 0; k < 3; k++) {
          var x = d.pose[(f * nl + l) * 7 + k];
          alo[k] = Math.min(alo[k], x - reach[l]); ahi[k] = Math.max(ahi[k], x + reach[l]);
          if (l > 0 && f === 0 || nl === 1) lo[k] = Math.min(lo[k], x - reach[l]), hi[k] = Math.max(hi[k], x + reach[l]);
          if (l > 0) d.centroid[3 * f + k] += x / (nl - 1);
        }
      }
    if (!(lo[0] <= hi[0])) { lo = [-0.5, -0.5, 0]; hi = [0.5, 0.5, 0.5]; }
    if (!(alo[0] <= ahi[0])) { alo = lo; ahi = hi; }
    d.center = new THREE.Vector3((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2);
    d.radius = Math.max(0.05, Math.hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]) / 2);
    d.allCenter = new THREE.Vector3((alo[0] + ahi[0]) / 2, (alo[1] + ahi[1]) / 2, (alo[2] + ahi[2]) / 2);
    d.allRadius = Math.max(d.radius, Math.hypot(ahi[0] - alo[0], ahi[1] - alo[1], ahi[2] - alo[2]) / 2);
    /* The camera's boxes, tighter: the corners of each geom's own box
     * (its half sizes in its frame) placed by its link's pose, at the
     * first frame and over all of them. */
    var blo = [Infinity, Infinity, Infinity], bhi = [-Infinity, -Infinity, -Infinity];
    var balo = blo.slice(), bahi = bhi.slice(), M = new THREE.Matrix4(), G = new THREE.Matrix4(), P = new THREE.Vector3();
    var half = s.geoms.map(function (g) {
      var z = g.size || [0, 0, 0];
      switch (g.type) {
        case 'box': return [z[0], z[1], z[2]];
        case 'sphere': return [z[0], z[0], z[0]];
        case 'cylinder': return [z[0], z[0], z[1]];
        case 'capsule': return [z[0], z[0], z[1] + z[0]];
        case 'mesh': return [g.radius || 0, g.radius || 0, g.radius || 0];
      }
      return null; /* a plane, or a type this page does not draw */
    });
    function poseMatrix(m, p, o) {
      return m.compose(P.set(p[o], p[o + 1], p[o + 2]), new THREE.Quaternion(p[o + 4], p[o + 5], p[o + 6], p[o + 3]),
        new THREE.Vector3(1, 1, 1));
    }
    for (f = 0; f < d.nframes; f++)
      s.geoms.forEach(function (g, gi) {
        var hs = half[gi];
        if (!hs || g.type === 'plane') return;
        var first = f === 0 && (g.link > 0 || nl === 1);
        poseMatrix(M, d.pose, (f * nl + g.link) * 7).multiply(poseMatrix(G, g.pose, 0));
        for (var k = 0; k < 8; k++) {
          P.set(k & 1 ? hs[0] : -hs[0], k & 2 ? hs[1] : -hs[1], k & 4 ? hs[2] : -hs[2]).applyMatrix4(M);
          for (var a = 0; a < 3; a++) {
            var x = P.getComponent(a);
            balo[a] = Math.min(balo[a], x); bahi[a] = Math.max(bahi[a], x);
            if (first) blo[a] = Math.min(blo[a], x), bhi[a] = Math.max(bhi[a], x);
          }
        }
      });
    d.lowest = balo[0] <= bahi[0] ? balo[2] : alo[2];
    d.box = blo[0] <= bhi[0] ? [blo, bhi] : [lo, hi];
    d.allBox = balo[0] <= bahi[0] ? [balo, bahi] : [alo, ahi];
    /* The camera follows a mechanism that travels further than its size. */
    d.travel = 0;
    for (f = 0; f < d.nframes; f++)
      d.travel = Math.max(d.travel, Math.hypot(d.centroid[3 * f] - d.centroid[0], d.centroid[3 * f + 1] - d.centroid[1],
        d.centroid[3 * f + 2] - d.centroid[2]));
    /* The arrows' scale: the 90th percentile of the resultants (pairs,
     * below) over the run, so that one impact's peak does not shrink every
     * other arrow to nothing; a longer arrow is capped at twice that. */
    var most = 0, mags = [];
    for (f = 0; f < d.nframes; f++) most = Math.max(most, d.coff[f + 1] - d.coff[f]);
    d.pair = new Float64Array(Math.max(1, most) * PF);
    for (f = 0; f < d.nframes; f++)
      for (var q = 0, np = pairs(d, f); q < np; q++) {
        var o = q * PF, fm = Math.max(Math.hypot(d.pair[o + 3], d.pair[o + 4], d.pair[o + 5]),
          Math.hypot(d.pair[o + 6], d.pair[o + 7], d.pair[o + 8]));
        if (fm > 0) mags.push(fm);
      }
    mags.sort(function (a, b) { return a - b; });
    d.fmax = mags.length ? mags[Math.min(mags.length - 1, Math.floor(0.9 * mags.length))] : 0;
    /* Frames at a change of contact: a contact starts carrying force (an
     * impact) or one starts or stops sliding. linkage simulate keeps such
     * a frame between the regular 1/fps ones; playing, the page shows it
     * rather than skipping past it (tick). */
    d.event = new Uint8Array(d.nframes);
    var prev = null;
    for (f = 0; f < d.nframes; f++) {
      var now = [0, 0];
      for (var c = d.coff[f]; c < d.coff[f + 1]; c++) {
        var st = d.contact[c * CF + 9];
        if (st > 0) now[0]++;
        if (st === 2) now[1]++;
      }
      d.event[f] = prev !== null && (now[0] > prev[0] || now[1] !== prev[1]) ? 1 : 0;
      prev = now;
    }
    return d;
  });

  /* ------------------------------------------------------------ page */
  function el(tag, attrs, parent, text) {
    var e = document.createElement(tag);
    for (var a in attrs) e.setAttribute(a, attrs[a]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  var body = document.body;
  if ((flat && params.ui !== '1') || params.ui === '0') body.classList.add('lk-bare');
  var holder = el('div', {id: 'lk-canvas'}, body);
  var head = el('div', {id: 'lk-head', 'class': 'lk-panel'}, body);
  var h1 = el('h1', {}, head, DATA.title);
  var caption = el('div', {'class': 'caption'}, head);
  var chooser = null;
  if (scenes.length > 1) {
    chooser = el('select', {id: 'lk-scene', title: 'scene'}, head);
    scenes.forEach(function (s, i) { el('option', {value: i}, chooser, s.src.name); });
  }
  var legend = el('div', {id: 'lk-legend'}, head);
  var info = el('div', {id: 'lk-info', 'class': 'lk-panel'}, body);
  var bar = el('div', {id: 'lk-bar', 'class': 'lk-panel'}, body);
  var playBtn = el('button', {id: 'lk-play', title: 'play / pause (space)'}, bar, '\u25B6');
  var slider = el('input', {id: 'lk-slider', type: 'range', min: 0, max: 0, value: 0, step: 1}, bar);
  var timeBox = el('span', {id: 'lk-time'}, bar);
  var speedSel = el('select', {id: 'lk-speed', title: 'playback speed'}, bar);
  [0.1, 0.25, 0.5, 1, 2, 4].forEach(function (x) {
    var o = el('option', {value: x}, speedSel, x + '\u00D7');
    if (x === 1) o.selected = true;
  });
  function toggle(id, label, on) {
    var l = el('label', {}, bar), c = el('input', {id: id, type: 'checkbox'}, l);
    l.appendChild(document.createTextNode(' ' + label));
    c.checked = on;
    c.addEventListener('change', function () { apply(); });
    return c;
  }
  /* flat=1 turns them off unless asked for (the browser test's picture of
   * the force arrows asks: flat=1&contacts=1). */
  var showContacts = toggle('lk-contacts', 'contacts', flag('contacts', !flat));
  var showForces = toggle('lk-forces', 'forces', flag('forces', !flat));
  var showFrames = toggle('lk-frames', 'frames', flag('frames', false));
  var showNames = toggle('lk-names', 'names', flag('names', false));
  var follow = toggle('lk-follow', 'follow', false);
  var status = el('pre', {id: 'lk-status'}, body);
  var meshList = el('pre', {id: 'lk-meshes'}, body);
  meshList.style.display = 'none';

  /* ---------------------------------------------------------- three.js */
  var renderer;
  try {
    renderer = new THREE.WebGLRenderer({antialias: !flat, preserveDrawingBuffer: true});
  } catch (e) {
    el('div', {id: 'lk-nogl'}, body, 'This page needs WebGL, which this browser does not offer: ' + e.message);
    errors.push('WebGL: ' + e.message);
    status.textContent = 'errors: ' + errors.join(' | ');
    return;
  }
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  holder.appendChild(renderer.domElement);
  var world = new THREE.Scene();
  world.background = new THREE.Color(flat ? 0xffffff : 0xf4f5f7);
  if (!flat) {
    world.add(new THREE.HemisphereLight(0xffffff, 0x8d8d8d, 0.75));
    var sun = new THREE.DirectionalLight(0xffffff, 0.65);
    sun.position.set(0.4, -0.6, 1);
    world.add(sun);
  }

  /* One tile of the floor's grid (build): white, with a grey line every
   * tenth of it and a darker one at its edges; the plane's colour tints it. */
  function gridTexture() {
    var n = 512, cv = document.createElement('canvas'), g = cv.getContext('2d');
    cv.width = cv.height = n;
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, n, n);
    g.fillStyle = '#c2c6ca';
    for (var i = 1; i < 10; i++) {
      var at = Math.round(i * n / 10);
      g.fillRect(at - 1, 0, 2, n);
      g.fillRect(0, at - 1, n, 2);
    }
    g.fillStyle = '#979da3';
    g.fillRect(0, 0, 2, n); g.fillRect(n - 2, 0, 2, n);
    g.fillRect(0, 0, n, 2); g.fillRect(0, n - 2, n, 2);
    var tex = new THREE.CanvasTexture(cv);
    tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
    tex.anisotropy = renderer.capabilities.getMaxAnisotropy();
    return tex;
  }

  function material(color) {
    return flat ? new THREE.MeshBasicMaterial({color: color})
                : new THREE.MeshPhongMaterial({color: color, shininess: 30});
  }

  /* A capsule along z: a lathe of two quarter circles joined by a
   * segment (three.js r111 has no capsule), turned from y to z. */
  function capsule(r, hl) {
    var pts = [], n = 10;
    for (var i = 0; i <= n; i++) {
      var a = -Math.PI / 2 + (i / n) * Math.PI / 2;
      pts.push(new THREE.Vector2(r * Math.cos(a), -hl + r * Math.sin(a)));
    }
    for (i = 0; i <= n; i++) {
      a = (i / n) * Math.PI / 2;
      pts.push(new THREE.Vector2(r * Math.cos(a), hl + r * Math.sin(a)));
    }
    pts[0].x = 0; pts[pts.length - 1].x = 0;
    return new THREE.LatheGeometry(pts, 24).rotateX(Math.PI / 2);
  }

  function geometry(g) {
    var s = g.size;
    switch (g.type) {
      case 'box': return new THREE.BoxBufferGeometry(2 * s[0], 2 * s[1], 2 * s[2]);
      case 'sphere': return new THREE.SphereBufferGeometry(s[0], 32, 20);
      case 'cylinder': return new THREE.CylinderBufferGeometry(s[0], s[0], 2 * s[1], 32).rotateX(Math.PI / 2);
      case 'capsule': return capsule(s[0], s[1]);
      case 'plane': return new THREE.PlaneBufferGeometry(1, 1);
      case 'mesh': {
        /* The mesh file's triangles (or, for a mesh made without its
         * file's faces, its convex hull): flat-shaded (each triangle its
         * own vertices, so the normals are the faces'). */
        if (!g.vertices) return null;
        var geo = new THREE.BufferGeometry();
        geo.setAttribute('position', new THREE.BufferAttribute(new Float32Array(bytes(g.vertices)), 3));
        geo.setIndex(new THREE.BufferAttribute(new Uint32Array(bytes(g.triangles)), 1));
        geo = geo.toNonIndexed();
        geo.computeVertexNormals();
        return geo;
      }
    }
    return null; /* a geom type this page does not know yet: not drawn */
  }

  function place(obj, p) {
    obj.position.set(p[0], p[1], p[2]);
    obj.quaternion.set(p[4], p[5], p[6], p[3]); /* three.js: x, y, z, w */
  }

  /* Build one scene's objects. */
  function build(d) {
    var root = new THREE.Group(), R = d.radius;
    d.groups = [];
    d.mats = [];
    for (var l = 0; l < d.nl; l++) {
      var grp = new THREE.Group();
      root.add(grp);
      d.groups.push(grp);
      d.mats.push(l === 0 ? null : material(PALETTE[(l - 1) % PALETTE.length]));
      var axes = new THREE.AxesHelper(0.18 * R);
      axes.visible = false;
      grp.add(axes);
      grp.userData.axes = axes;
    }
    /* A link with visual geoms (ones that collide with nothing: a URDF's
     * <visual>, an MJCF visual geom) is drawn by them alone; its
     * collision shapes only with collision=1. */
    var hasVisual = [];
    d.src.geoms.forEach(function (g) { if (g.visual) hasVisual[g.link] = true; });
    var showCollision = flag('collision', false);
    d.meshStats = [];
    d.src.geoms.forEach(function (g) {
      if (!g.visual && hasVisual[g.link] && !showCollision) return;
      var geo = geometry(g);
      if (!geo) return;
      if (g.type === 'mesh')
        d.meshStats.push(d.src.links[g.link].name + ' ' + (g.visual ? 'visual' : 'collision') + ' ' +
                         geo.getAttribute('position').count / 3);
      var mat;
      if (g.type === 'plane')
        mat = flat ? new THREE.MeshBasicMaterial({color: 0xe6e6e6, side: THREE.DoubleSide})
                   : new THREE.MeshPhongMaterial({color: WORLD, side: THREE.DoubleSide, transparent: true, opacity: 0.9});
      else
        mat = g.link === 0 ? material(WORLD) : d.mats[g.link];
      var mesh = new THREE.Mesh(geo, mat);
      place(mesh, g.pose);
      mesh.name = g.label;
      if (g.type === 'plane') {
        /* A square of the plane around the foot of everything's centre,
         * wide enough for the whole run, with a grid of round spacing. */
        var side = 2 * d.allRadius + 6 * R, step = Math.pow(10, Math.round(Math.log10(R / 3)));
        side = Math.ceil(side / step / 2) * step * 2;
        var sq = new THREE.Mesh(geo, mat);
        var local = d.allCenter.clone();
        var inv = new THREE.Matrix4().compose(new THREE.Vector3(g.pose[0], g.pose[1], g.pose[2]),
          new THREE.Quaternion(g.pose[4], g.pose[5], g.pose[6], g.pose[3]), new THREE.Vector3(1, 1, 1));
        local.applyMatrix4(new THREE.Matrix4().getInverse(inv));
        sq.position.set(Math.round(local.x / step) * step, Math.round(local.y / step) * step, 0);
        sq.scale.set(side, side, 1);
        sq.renderOrder = -1;
        sq.name = g.label;
        mesh = new THREE.Group();
        place(mesh, g.pose);
        mesh.add(sq);
        if (!flat) {
          /* The grid is a texture of the plane, not lines: a line that
           * passes behind the camera (the rover's floor, many metres
           * wide, seen from above it) was dropped whole by the software
           * renderer of the screenshots, leaving only a band of lines at
           * the horizon; triangles are clipped as they should be, and the
           * mipmaps fade the far lines instead of piling them up. A tile
           * is 10 x 10 cells of `step`, its edges the major lines, placed
           * so that lines fall on multiples of step in the plane. */
          var tile = 10 * step, x0 = sq.position.x - side / 2, y0 = sq.position.y - side / 2;
          sq.material = mat = mat.clone();
          mat.map = gridTexture();
          mat.map.repeat.set(side / tile, side / tile);
          mat.map.offset.set(x0 / tile - Math.floor(x0 / tile), y0 / tile - Math.floor(y0 / tile));
        }
      }
      d.groups[g.link].add(mesh);
    });
    /* A scene without a plane (a grasp trial in the air) gets a faint
     * grid just below the lowest point of its run, so that a lift reads as
     * one: a reference, not a floor (nothing touches it). */
    var planes = d.src.geoms.some(function (g) { return g.type === 'plane'; });
    if (!planes && !flat) {
      var gstep = Math.pow(10, Math.round(Math.log10(R / 3))), gside = 2 * d.allRadius + 6 * R;
      gside = Math.ceil(gside / gstep / 2) * gstep * 2;
      var ref = new THREE.GridHelper(gside, Math.round(gside / gstep), 0xb4b9be, 0xd6d9dc);
      ref.rotation.x = Math.PI / 2;
      ref.position.set(Math.round(d.allCenter.x / gstep) * gstep, Math.round(d.allCenter.y / gstep) * gstep,
        d.lowest - 0.05 * R);
      ref.name = 'reference grid';
      root.add(ref);
    }
    /* Contact markers, made on demand and reused. */
    d.markers = new THREE.Group();
    d.markers.renderOrder = 10;
    root.add(d.markers);
    d.pool = [];
    d.labels = [];
    for (l = 1; l < d.nl; l++) {
      var lab = el('div', {'class': 'lk-name'}, body, d.src.links[l].name);
      lab.style.display = 'none';
      d.labels.push(lab);
    }
    d.root = root;
  }

  var pointGeo = new THREE.SphereBufferGeometry(1, 12, 8);
  /* A solid arrow along +y from its origin (a 1 px line is lost at a
   * window's size): a shaft and a head of unit size, scaled by setLength.
   * Drawn over the solids, after them: its shaft lies inside a body. */
  var shaftGeo = new THREE.CylinderBufferGeometry(1, 1, 1, 10).translate(0, 0.5, 0);
  var headGeo = new THREE.ConeBufferGeometry(1, 1, 14).translate(0, 0.5, 0);
  var yAxis = new THREE.Vector3(0, 1, 0);
  function arrow(R) {
    /* transparent (though opaque) so that it is drawn with the see-through
     * floor, after it (renderOrder), not under it. */
    var mat = new THREE.MeshBasicMaterial({color: 0x888888, depthTest: false, depthWrite: false,
      transparent: true, opacity: 1});
    var g = new THREE.Group(), shaft = new THREE.Mesh(shaftGeo, mat), head = new THREE.Mesh(headGeo, mat);
    shaft.renderOrder = head.renderOrder = 11;
    g.add(shaft); g.add(head);
    g.setDirection = function (dir) { g.quaternion.setFromUnitVectors(yAxis, dir); };
    g.setLength = function (len) {
      var hl = Math.min(0.35 * len, 0.07 * R), hw = Math.min(0.16 * len, 0.03 * R), sw = Math.min(0.06 * len, 0.011 * R);
      shaft.scale.set(sw, len - hl, sw);
      head.position.y = len - hl;
      head.scale.set(hw, hl, hw);
    };
    g.setColor = function (c) { mat.color.setHex(c); };
    return g;
  }
  function marker(d, i) {
    while (d.pool.length <= i) {
      var m = {
        dot: new THREE.Mesh(pointGeo, new THREE.MeshBasicMaterial({color: 0x888888})),
        fn: arrow(d.radius),
        ft: arrow(d.radius)
      };
      /* The dot is depth-tested, so that a contact behind a solid is
       * hidden by it (it is centred between the surfaces it joins, so half
       * of it shows on the visible one). An arrow is a push drawn up to the
       * point (show) so its shaft lies inside the other body: it is drawn
       * over the solids, after them. */
      m.dot.renderOrder = 10;
      m.dot.scale.setScalar(0.012 * d.radius);
      d.markers.add(m.dot); d.markers.add(m.fn); d.markers.add(m.ft);
      d.pool.push(m);
    }
    return d.pool[i];
  }

  /* ------------------------------------------------------------ camera */
  var camera, controls, followed, cur = null, frame = 0, playing = false, simTime = 0, dirty = true;

  function makeCamera(d) {
    var w = holder.clientWidth || window.innerWidth, h = holder.clientHeight || window.innerHeight;
    /* A mechanism that stays about where it is (a gripper lifting a cube)
     * is framed over the whole run, so nothing it does leaves the window;
     * one that travels (the rover) is framed at its start and followed. */
    var whole = !follow.checked;
    var c = whole ? d.allCenter : d.center, R = whole ? d.allRadius : d.radius, axis = params.cam;
    var box = whole ? d.allBox : d.box;
    if (!axis) c = new THREE.Vector3((box[0][0] + box[1][0]) / 2, (box[0][1] + box[1][1]) / 2, (box[0][2] + box[1][2]) / 2);
    if (axis) {
      var ctr = (params.center || '').split(',').map(Number);
      if (ctr.length === 3 && ctr.every(isFinite)) c = new THREE.Vector3(ctr[0], ctr[1], ctr[2]);
      var hh = Number(params.height) > 0 ? Number(params.height) : 2.2 * R, ww = hh * w / h;
      camera = new THREE.OrthographicCamera(-ww / 2, ww / 2, hh / 2, -hh / 2, 0.01 * R, 100 * R);
      var dir = {x: [1, 0, 0], '-x': [-1, 0, 0], y: [0, 1, 0], '-y': [0, -1, 0], z: [0, 0, 1]}[axis] || [1, 0, 0];
      camera.up.set(0, 0, 1);
      if (axis === 'z') camera.up.set(0, 1, 0);
      camera.position.set(c.x + 20 * R * dir[0], c.y + 20 * R * dir[1], c.z + 20 * R * dir[2]);
    } else {
      camera = new THREE.PerspectiveCamera(40, w / h, 0.01 * R, 200 * R);
      camera.up.set(0, 0, 1);
      /* The eight corners of the box (of the whole run, or of the start
       * when following) fit in the part of the window the panels leave
       * free: their tops cover about the upper quarter and the bar the
       * bottom twelfth at the usual sizes, so in normalised coordinates
       * y from -0.84 to 0.5, and x within +-0.95. Looking along v, the
       * target is moved along the screen's up so that the corners' span
       * sits in that band, then the camera backs off until every corner
       * is inside (the closest distance that does, by corner). */
      var tan20 = Math.tan(20 * Math.PI / 180), asp = w / h;
      var v = new THREE.Vector3(1.5, -0.8, 0.45).normalize();
      var up = new THREE.Vector3(0, 0, 1).addScaledVector(v, -v.z).normalize();
      var right = new THREE.Vector3().crossVectors(up, v);
      var corners = [], ymin = Infinity, ymax = -Infinity;
      for (var k = 0; k < 8; k++) {
        var p = new THREE.Vector3(box[k & 1][0], box[k >> 1 & 1][1], box[k >> 2 & 1][2]).sub(c);
        corners.push(p);
        ymin = Math.min(ymin, p.dot(up)); ymax = Math.max(ymax, p.dot(up));
      }
      var shift = ymax - 0.5 * (ymax - ymin) / 1.34, dist = 0.05 * R;
      corners.forEach(function (p) {
        var x = Math.abs(p.dot(right)), y = p.dot(up) - shift, z = p.dot(v);
        dist = Math.max(dist, z + (y > 0 ? y / (0.5 * tan20) : -y / (0.84 * tan20)), z + x / (0.95 * asp * tan20));
      });
      c = c.clone().addScaledVector(up, shift);
      /* Following, twice as far: the ground ahead in view. */
      camera.position.copy(c).addScaledVector(v, whole ? dist : 2 * dist);
    }
    camera.lookAt(c);
    if (controls) controls.dispose();
    controls = new THREE.OrbitControls(camera, renderer.domElement);
    controls.target.copy(c);
    controls.screenSpacePanning = true;
    controls.update();
    followed = [d.centroid[0], d.centroid[1], d.centroid[2]];
    controls.addEventListener('change', function () { dirty = true; });
  }

  function resize() {
    var w = window.innerWidth, h = window.innerHeight;
    renderer.setSize(w, h);
    if (camera && camera.isPerspectiveCamera) camera.aspect = w / h;
    else if (camera) {
      var hh = camera.top - camera.bottom;
      camera.left = -hh * w / h / 2; camera.right = hh * w / h / 2;
    }
    if (camera) camera.updateProjectionMatrix();
    dirty = true;
  }

  function fmtNum(x) { return x === 0 ? '0' : (Math.abs(x) >= 0.01 && Math.abs(x) < 1e5 ? x.toPrecision(4).replace(/\.?0+$/, '') : x.toExponential(2)); }

  function select(i) {
    if (cur) world.remove(cur.root), cur.labels.forEach(function (l) { l.style.display = 'none'; });
    cur = scenes[i];
    if (!cur.root) build(cur);
    world.add(cur.root);
    /* For the browser test: the mesh geoms drawn, "link kind triangles". */
    meshList.textContent = cur.meshStats.join('\n');
    if (chooser) chooser.value = i;
    caption.textContent = cur.src.caption || (scenes.length > 1 ? cur.src.name : '');
    slider.max = cur.nframes - 1;
    var arrow = cur.fmax > 0 ? ' \u00B7 arrows: ' + fmtNum(0.35 * cur.radius * 100) + ' cm = ' + fmtNum(cur.fmax) + ' N (capped at twice)' : '';
    legend.innerHTML = '';
    STATE_NAME.forEach(function (n, k) {
      var s = el('span', {'class': 'dot'}, legend);
      s.style.background = '#' + ('00000' + STATE_COLOR[k].toString(16)).slice(-6);
      legend.appendChild(document.createTextNode(n));
    });
    legend.appendChild(document.createTextNode(' contacts; red tint: slipping' + arrow));
    follow.checked = 'follow' in params ? flag('follow', false) : !params.cam && cur.travel > cur.radius;
    makeCamera(cur);
    resize();
    show(0);
  }

  /* The last frame at or before time t. */
  function frameAt(t) {
    var lo = 0, hi = cur.nframes - 1;
    if (t <= cur.t[0]) return 0;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (cur.t[mid] <= t + 1e-9) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  var tmpA = new THREE.Vector3(), tmpB = new THREE.Vector3();
  function show(f) {
    var d = cur;
    frame = Math.max(0, Math.min(d.nframes - 1, f));
    for (var l = 1; l < d.nl; l++) {
      var p = d.pose.subarray((frame * d.nl + l) * 7, (frame * d.nl + l) * 7 + 7);
      place(d.groups[l], p);
      if (!flat) d.mats[l].emissive.setHex(d.slip[frame * d.nl + l] ? 0x990000 : 0x000000);
    }
    /* Contacts: a dot each, and one pair of arrows per two bodies
     * touching (pairs) drawn on one of them as a push: the normal arrow
     * ends at the centre of pressure, its shaft outside that body, and the
     * friction arrow starts there. So the two pads squeezing a cube give
     * two arrows pointing at it from either side, whose shafts cannot
     * overlap however long the scale makes them, and a box on the floor is
     * pushed up from below. */
    var c0 = d.coff[frame], c1 = d.coff[frame + 1], n = c1 - c0, np = pairs(d, frame);
    var ref = 0.35 * d.radius, scale = d.fmax > 0 ? ref / d.fmax : 0;
    for (var i = 0; i < Math.max(n, d.pool.length); i++) {
      if (i >= n) {
        var m = d.pool[i];
        m.dot.visible = m.fn.visible = m.ft.visible = false;
        continue;
      }
      m = marker(d, i);
      var c = (c0 + i) * CF, st = d.contact[c + 9];
      m.dot.position.set(d.contact[c], d.contact[c + 1], d.contact[c + 2]);
      m.dot.material.color.setHex(STATE_COLOR[st] || STATE_COLOR[0]);
      m.dot.visible = showContacts.checked;
      m.fn.visible = m.ft.visible = false;
      if (i >= np) continue;
      var o = i * PF, col = STATE_COLOR[d.pair[o + 9]] || STATE_COLOR[0];
      [[m.fn, 3, col, 1], [m.ft, 6, new THREE.Color(col).multiplyScalar(0.6).getHex(), 0]].forEach(function (a) {
        tmpA.set(d.pair[o + a[1]], d.pair[o + a[1] + 1], d.pair[o + a[1] + 2]);
        var len = Math.min(tmpA.length() * scale, 2 * ref);
        a[0].visible = showContacts.checked && showForces.checked && len > 1e-4 * d.radius;
        if (!a[0].visible) return;
        tmpA.normalize();
        a[0].position.set(d.pair[o], d.pair[o + 1], d.pair[o + 2]);
        if (a[3]) a[0].position.addScaledVector(tmpA, -len); /* a push: it ends at the point */
        a[0].setDirection(tmpA);
        a[0].setLength(len);
        a[0].setColor(a[2]);
      });
    }
    if (follow.checked) {
      /* Carry the camera along with the mechanism's centroid. */
      tmpA.set(d.centroid[3 * frame] - followed[0], d.centroid[3 * frame + 1] - followed[1],
        d.centroid[3 * frame + 2] - followed[2]);
      camera.position.add(tmpA);
      controls.target.add(tmpA);
      controls.update();
    }
    followed = [d.centroid[3 * frame], d.centroid[3 * frame + 1], d.centroid[3 * frame + 2]];
    slider.value = frame;
    var t = d.t[frame];
    timeBox.textContent = 't = ' + t.toFixed(3) + ' s  (' + (frame + 1) + '/' + d.nframes + ')';
    /* The solver report of the steps up to this frame. */
    var r = function (k) { return d.report[frame * d.nrep + d.field[k]]; };
    var tot = function (k) { return d.total[frame * d.nrep + d.field[k]]; };
    var stat = r('status'), sname = d.src.status_names[stat] || ('status ' + stat);
    var lines = [
      'contacts   ' + r('contacts'),
      'steps      ' + r('steps') + ' since last frame, ' + tot('steps') + ' in all',
      'LCP        ' + r('solves') + ' solves, ' + r('pivots') + ' pivots, residual ' + fmtNum(d.residual[frame]),
      'failures   ' + r('failures') + ' (' + tot('failures') + ' in all)',
      'fallbacks  ' + r('fallbacks') + ' (' + tot('fallbacks') + ' in all)',
      'unsettled  ' + r('unsettled') + ' (' + tot('unsettled') + ' in all)',
      'status     ' + (stat ? sname : 'ok')
    ];
    info.innerHTML = '';
    el('div', {}, info, 't = ' + t.toFixed(4) + ' s');
    lines.forEach(function (s, k) {
      var bad = (k === 3 && tot('failures') > 0) || (k === 4 && tot('fallbacks') > 0) || (k === 6 && stat);
      el('div', bad ? {'class': 'bad'} : {}, info, s);
    });
    dirty = true;
  }

  function apply() {
    for (var l = 1; l < cur.nl; l++) cur.groups[l].userData.axes.visible = showFrames.checked;
    show(frame);
  }

  function labels() {
    var d = cur, w = renderer.domElement.clientWidth, h = renderer.domElement.clientHeight;
    for (var l = 1; l < d.nl; l++) {
      var lab = d.labels[l - 1];
      if (!showNames.checked) { lab.style.display = 'none'; continue; }
      tmpB.setFromMatrixPosition(d.groups[l].matrixWorld).project(camera);
      lab.style.display = tmpB.z < 1 ? '' : 'none';
      lab.style.left = ((tmpB.x + 1) / 2 * w) + 'px';
      lab.style.top = ((1 - tmpB.y) / 2 * h) + 'px';
    }
  }

  function render() {
    world.updateMatrixWorld();
    renderer.render(world, camera);
    labels();
    dirty = false;
  }

  function setPlaying(on) {
    playing = on && cur.nframes > 1;
    playBtn.textContent = playing ? '\u275A\u275A' : '\u25B6';
    if (playing) {
      if (frame >= cur.nframes - 1) show(0);
      simTime = cur.t[frame];
    } else if (history.replaceState) {
      /* The paused moment in the address, to share. */
      history.replaceState(null, '', '#t=' + cur.t[frame] + (scenes.length > 1 ? '&scene=' + scenes.indexOf(cur) : ''));
    }
  }

  var last = null;
  function tick(now) {
    if (playing) {
      if (last !== null) {
        simTime += (now - last) / 1000 * Number(speedSel.value);
        var end = cur.t[cur.nframes - 1];
        if (simTime > end) simTime = cur.t[0]; /* loop */
        var f = frameAt(simTime);
        /* A frame kept at a change of contact (an impact lasts a step or
         * two) is shown even when the display's frame passes over it. */
        for (var k = frame + 1; k < f; k++)
          if (cur.event[k]) { f = k; break; }
        if (f !== frame || simTime <= cur.t[0]) show(f);
      }
      last = now;
    } else {
      last = null;
    }
    if (dirty) render();
    requestAnimationFrame(tick);
  }

  /* ------------------------------------------------------------- wiring */
  playBtn.addEventListener('click', function () { setPlaying(!playing); });
  slider.addEventListener('input', function () { show(Number(slider.value)); simTime = cur.t[frame]; });
  slider.addEventListener('change', function () { if (!playing) setPlaying(false); });
  if (chooser) chooser.addEventListener('change', function () { setPlaying(false); select(Number(chooser.value)); });
  window.addEventListener('resize', resize);
  window.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'SELECT') return;
    if (e.key === ' ') { setPlaying(!playing); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { setPlaying(false); show(frame + 1); }
    else if (e.key === 'ArrowLeft') { setPlaying(false); show(frame - 1); }
    else if (e.key === 'Home') { show(0); simTime = cur.t[0]; }
  });

  var first = Math.max(0, Math.min(scenes.length - 1, Number(params.scene) || 0));
  select(first);
  apply();
  if ('t' in params && isFinite(Number(params.t))) {
    show(frameAt(Number(params.t)));
  } else if (!flat) {
    setPlaying(true);
  }
  render();
  requestAnimationFrame(tick);
  /* For the browser test: what went wrong, if anything (also in the
   * console). */
  status.textContent = errors.length ? 'errors: ' + errors.join(' | ') : 'ok';
  window.addEventListener('error', function () {
    status.textContent = 'errors: ' + errors.join(' | ');
  });
})();
