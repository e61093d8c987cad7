#!/usr/bin/env python3
"""Writes the broken mechanism files of tests/data/io and their manifest.

Each case is (file name, text, expected status, anchor, message fragment):
the expected position is where `anchor` starts in the text (1-based line and
column; the first occurrence, or the n-th with "anchor@n"), "-" for a report
without a position. The anchors and fragments are written by hand from what
the mistake is, never taken from the loader's output. Run it after editing
a case; the files and MANIFEST are committed.
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

def link(extra="", name="arm"):
    return ("links:\n"
            f"  - name: {name}\n"
            "    joint: {type: revolute, axis: [0, 1, 0]}\n"
            "    mass: 1.0\n"
            "    inertia: [0.01, 0.01, 0.01]\n" + extra)

GOOD_LINK = link()

def urdf(mass="1", doctype="", extra=""):
    """A one-link URDF; the <mass> element is on line 4 without a DOCTYPE
    (the DOCTYPE's own lines come before it)."""
    return ('<?xml version="1.0"?>\n' + doctype +
            '<robot name="r">\n'
            '  <link name="base">' + extra + '</link>\n'
            '  <link name="arm"><inertial><mass value="' + mass + '"/>'
            '<inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>\n'
            '  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/></joint>\n'
            '</robot>\n')

CASES = [
    # ---- syntax and encoding
    ("syntax_unclosed_flow.yaml", "links: [\n  {name: a, mass: 1}\n", "PARSE", "@3:1",
     "did not find expected"),
    ("syntax_bad_indent.yaml", "links:\n  - name: a\n     mass: 1\n", "PARSE", "@3:10", "mapping values are not allowed"),
    ("syntax_tab.yaml", "links:\n\t- name: a\n", "PARSE", "\t", "cannot start any token"),
    ("syntax_unclosed_quote.yaml", 'name: "pendulum\nlinks: []\n', "PARSE", "@3:1", "found unexpected end of stream"),
    ("syntax_undefined_alias.yaml", "materials: *steel\n" + GOOD_LINK, "PARSE", "*steel", "undefined alias"),
    ("empty.yaml", "", "SCHEMA", "-", "the file is empty"),
    ("comments_only.yaml", "# a mechanism\n# (not yet written)\n", "SCHEMA", "-", "the file is empty"),
    ("binary.yaml", bytes([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0xff, 0xfe, 0x00, 0x10]) , "PARSE", "@1:1", "not a YAML text file"),
    # libyaml reports the offending trailing byte (0x28), the 11th character.
    ("invalid_utf8.yaml", b"name: caf\xc3\x28\n" + GOOD_LINK.encode(), "PARSE", "@1:11", "invalid trailing UTF-8 octet"),
    ("two_documents.yaml", GOOD_LINK + "---\n" + GOOD_LINK, "SCHEMA", "---", "second YAML document"),
    # ---- shape of the document
    ("root_is_list.yaml", "- name: arm\n  mass: 1\n", "SCHEMA", "- name", "expected a mapping"),
    ("root_is_scalar.yaml", "pendulum\n", "SCHEMA", "pendulum", "expected a mapping"),
    ("links_is_mapping.yaml", "links:\n  name: arm\n  mass: 1\n", "SCHEMA", "name: arm", "links: expected a list"),
    ("link_is_scalar.yaml", "links:\n  - arm\n", "SCHEMA", "arm", "links[0]: expected a mapping"),
    # Refused before libyaml scans it (its time grows with the square of
    # the depth): at the 257th '['.
    ("deep_nesting.yaml", "links: " + "[" * 3000 + "]" * 3000 + "\n", "PARSE", "[@257", "nested more than 256 deep"),
    ("alias_cycle.yaml", "links: &l [*l]\n", "SCHEMA", "&l", "links[0]: expected a mapping (key: value), got a list"),
    ("key_not_scalar.yaml", "? [links]\n: 1\n", "SCHEMA", "[links]", "keys must be names"),
    # ---- unknown keys
    ("unknown_top_key.yaml", "link:\n  - {name: arm, mass: 1}\n", "SCHEMA", "link:", "unknown key 'link' (did you mean 'links'?)"),
    ("unknown_link_key.yaml", link("    masss: 2\n"), "SCHEMA", "masss", "unknown key 'masss' (did you mean 'mass'?)"),
    ("unknown_key_no_suggestion.yaml", link("    colour: red\n"), "SCHEMA", "colour", "known keys: name, parent"),
    ("unknown_option.yaml", "options:\n  time_step: 0.001\n" + GOOD_LINK, "SCHEMA", "time_step", "did you mean 'timestep'?"),
    ("unknown_joint_key.yaml", "links:\n  - name: arm\n    joint: {type: revolute, axes: [0, 1, 0]}\n    mass: 1\n    inertia: [1, 1, 1]\n",
     "SCHEMA", "axes", "did you mean 'axis'?"),
    ("unknown_geom_key.yaml", link("    geoms:\n      - {type: sphere, raduis: 0.1}\n"), "SCHEMA", "raduis", "did you mean 'radius'?"),
    ("duplicate_key.yaml", link("    mass: 2.0\n"), "SCHEMA", "mass@2", "duplicate key 'mass' (first given at line 4, column 5)"),
    # ---- missing keys
    ("missing_links.yaml", "name: nothing\noptions: {timestep: 0.001}\n", "SCHEMA", "name", "missing required key 'links'"),
    ("empty_links.yaml", "links: []\n", "SCHEMA", "[]", "the list is empty"),
    ("missing_link_name.yaml", "links:\n  - parent: world\n    mass: 1\n", "SCHEMA", "parent", "links[0]: missing required key 'name'"),
    ("missing_mass.yaml", "links:\n  - name: arm\n    joint: {type: revolute}\n    inertia: [1, 1, 1]\n", "SCHEMA", "name: arm", "missing required key 'mass'"),
    ("missing_joint_type.yaml", "links:\n  - name: arm\n    joint: {name: hinge, axis: [0, 1, 0]}\n    mass: 1\n    inertia: [1, 1, 1]\n",
     "SCHEMA", "{name: hinge", "joint 'hinge': missing required key 'type'"),
    ("missing_geom_type.yaml", link("    geoms:\n      - {radius: 0.1}\n"), "SCHEMA", "{radius", "missing required key 'type'"),
    ("missing_radius.yaml", link("    geoms:\n      - {type: sphere}\n"), "SCHEMA", "{type: sphere", "missing required key 'radius'"),
    ("missing_tether_length.yaml", GOOD_LINK + "constraints:\n  tethers:\n    - {link: arm, point: [0, 0, 0]}\n", "SCHEMA", "{link: arm", "missing required key 'length'"),
    # ---- wrong types
    ("mass_is_word.yaml", link().replace("mass: 1.0", "mass: heavy"), "SCHEMA", "heavy", "mass: expected a number, got 'heavy'"),
    ("mass_is_quoted.yaml", link().replace("mass: 1.0", 'mass: "1.0"'), "SCHEMA", '"1.0"', "got the quoted string '1.0'"),
    ("mass_is_empty.yaml", link().replace("mass: 1.0", "mass:"), "SCHEMA", "@4:10", "mass: expected a number, got nothing"),
    ("gravity_is_scalar.yaml", "options:\n  gravity: 9.81\n" + GOOD_LINK, "SCHEMA", "9.81", "expected a list of 3 numbers"),
    ("xyz_too_short.yaml", link("    origin: {xyz: [0, 0]}\n"), "SCHEMA", "[0, 0]", "expected a list of 3 numbers, got 2"),
    ("inertia_wrong_length.yaml", link().replace("[0.01, 0.01, 0.01]", "[0.01, 0.01, 0.01, 0]"), "SCHEMA", "[0.01", "a list of 6 or 3 numbers, got 4"),
    ("bool_is_yes.yaml", link("    geoms:\n      - {type: sphere, radius: 0.1, collide_parent: yes}\n"), "SCHEMA", "yes", "expected true or false"),
    ("cone_edges_float.yaml", "options: {cone_edges: 8.5}\n" + GOOD_LINK, "SCHEMA", "8.5", "expected an integer"),
    ("inf_spelled_wrong.yaml", GOOD_LINK + "actuators:\n  - {joint: arm, max_effort: inf}\n", "SCHEMA", "inf}", "YAML spells these .inf"),
    # ---- non-finite and out of range
    ("nan_mass.yaml", link().replace("mass: 1.0", "mass: .nan"), "SCHEMA", ".nan", ".nan is not allowed"),
    ("inf_timestep.yaml", "options: {timestep: .inf}\n" + GOOD_LINK, "SCHEMA", ".inf", "not allowed here"),
    ("overflow_number.yaml", link().replace("mass: 1.0", "mass: 1e999"), "SCHEMA", "1e999", "out of range"),
    ("negative_mass.yaml", link().replace("mass: 1.0", "mass: -2"), "SCHEMA", "-2", "mass must be >= 0, got -2"),
    ("zero_mass_revolute.yaml", link().replace("mass: 1.0", "mass: 0"), "SCHEMA", "0\n", "mass must be positive on a revolute joint"),
    ("negative_radius.yaml", link("    geoms:\n      - {type: sphere, radius: -0.1}\n"), "SCHEMA", "-0.1", "radius must be positive"),
    ("zero_half_extent.yaml", link("    geoms:\n      - {type: box, half_extents: [0.1, 0, 0.1]}\n"), "SCHEMA", "[0.1, 0", "half_extents must all be positive"),
    ("zero_axis.yaml", link().replace("axis: [0, 1, 0]", "axis: [0, 0, 0]"), "SCHEMA", "[0, 0, 0]", "must not be the zero vector"),
    ("restitution_above_one.yaml", "materials:\n  - {name: rubber, restitution: 1.5}\n" + GOOD_LINK, "SCHEMA", "1.5", "restitution must be in [0, 1]"),
    ("negative_timestep.yaml", "options: {timestep: -0.001}\n" + GOOD_LINK, "SCHEMA", "-0.001", "timestep must be positive"),
    ("cone_edges_too_few.yaml", "options: {friction_cone: pyramid, cone_edges: 2}\n" + GOOD_LINK, "SCHEMA", "2}", "out of range (3 to 64)"),
    ("limit_reversed.yaml", link().replace("axis: [0, 1, 0]", "axis: [0, 1, 0], limit: [1.0, -1.0]"), "SCHEMA", "[1.0", "lower 1 is above upper -1"),
    ("ball_limit_too_wide.yaml", "links:\n  - name: arm\n    joint: {type: ball, limit: 4}\n    mass: 1\n    inertia: [1, 1, 1]\n", "SCHEMA", "4}", "cone angle in (0, pi]"),
    ("quat_not_unit.yaml", link("    origin: {quat: [0, 0, 0, 2]}\n"), "SCHEMA", "[0, 0, 0, 2]", "has norm 2"),
    ("load_end_before_start.yaml", GOOD_LINK + "loads:\n  - {link: arm, force: [1, 0, 0], start: 2, end: 1}\n", "SCHEMA", "1}", "end 1 comes before start 2"),
    ("schedule_not_increasing.yaml", GOOD_LINK + "actuators:\n  - {joint: arm, schedule: [[0, 1], [0.5, 2], [0.5, 3]]}\n", "SCHEMA", "[0.5, 3]", "times must increase"),
    ("long_name.yaml", link(name="a" * 100), "SCHEMA", "aaaa", "is 100 characters long, at most 64"),
    ("bad_name_chars.yaml", link(name='"upper arm"'), "SCHEMA", '"upper arm"', "is not a valid name"),
    ("nul_in_name.yaml", link(name='"arm\\0x"'), "SCHEMA", '"arm', "contains a NUL character"),
    # ---- enums
    ("unknown_solver.yaml", "options: {solver: lemek}\n" + GOOD_LINK, "SCHEMA", "lemek", "unknown value 'lemek' (did you mean 'lemke'?)"),
    ("unknown_joint_type.yaml", link().replace("type: revolute", "type: hinge"), "SCHEMA", "hinge", "expected one of fixed, revolute, prismatic, ball, free"),
    ("unknown_geom_type.yaml", link("    geoms:\n      - {type: cube, half_extents: [1, 1, 1]}\n"), "SCHEMA", "cube", "expected one of plane, sphere"),
    # ---- references
    ("unknown_parent.yaml", "links:\n  - {name: upper_arm, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n  - {name: forearm, parent: uper_arm, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n",
     "SCHEMA", "uper_arm", "unknown link 'uper_arm' (did you mean 'upper_arm'?)"),
    ("unknown_material.yaml", "materials: [{name: steel}]\n" + link("    geoms:\n      - {type: sphere, radius: 0.1, material: stel}\n"), "SCHEMA", "stel}", "unknown material 'stel' (did you mean 'steel'?)"),
    ("unknown_actuator_joint.yaml", link().replace("{type: revolute", "{name: elbow, type: revolute") + "actuators:\n  - {joint: elbw, type: effort}\n", "SCHEMA", "elbw", "unknown joint 'elbw' (did you mean 'elbow'?)"),
    ("unknown_initial_joint.yaml", GOOD_LINK + "initial:\n  - {joint: nothing, q: 0}\n", "SCHEMA", "nothing", "unknown joint 'nothing' (no joint has that name)"),
    ("actuator_on_free_joint.yaml", "links:\n  - {name: box, joint: free, mass: 1, inertia: [1, 1, 1]}\nactuators:\n  - {joint: box, type: effort}\n", "SCHEMA", "box, type", "only revolute and prismatic"),
    ("load_on_world.yaml", GOOD_LINK + "loads:\n  - {link: world, force: [1, 0, 0]}\n", "SCHEMA", "world,", "must be a link, not the world"),
    ("contact_with_itself.yaml", GOOD_LINK + "contacts:\n  - {link: arm, other: arm}\n", "SCHEMA", "arm}", "other is the touching link itself"),
    ("loop_unknown_link.yaml", GOOD_LINK + "constraints:\n  loops:\n    - {type: ball, link_a: arm, link_b: rokker}\n", "SCHEMA", "rokker", "unknown link 'rokker'"),
    ("coupling_on_ball_joint.yaml", GOOD_LINK + "  - {name: wrist, parent: arm, joint: ball, mass: 1, inertia: [1, 1, 1]}\nconstraints:\n  couplings:\n    - {joint_a: arm, joint_b: wrist}\n",
     "SCHEMA", "wrist}", "joint 'wrist' is ball"),
    ("duplicate_link.yaml", GOOD_LINK + "  - {name: arm, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n", "SCHEMA", "arm,", "link 'arm' is defined twice (first at line 2, column 11)"),
    ("duplicate_material.yaml", "materials:\n  - {name: wood}\n  - {name: wood, mu: 0.3}\n" + GOOD_LINK, "SCHEMA", "wood, mu", "material 'wood' is defined twice"),
    ("duplicate_initial.yaml", GOOD_LINK + "initial:\n  - {joint: arm, q: 0.1}\n  - {joint: arm, q: 0.2}\n", "SCHEMA", "arm, q: 0.2", "defined twice"),
    ("world_as_link_name.yaml", link(name="world"), "SCHEMA", "world", "'world' is the name of the world"),
    ("self_parent.yaml", "links:\n  - {name: arm, parent: arm, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n", "SCHEMA", "arm, joint", "cannot be its own parent"),
    ("cycle.yaml", "links:\n  - {name: a, parent: c, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n  - {name: b, parent: a, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n  - {name: c, parent: b, joint: revolute, mass: 1, inertia: [1, 1, 1]}\n",
     "SCHEMA", "c, joint", "makes a cycle (a -> c -> b -> a)"),
    # ---- combinations that do not apply
    ("radius_on_box.yaml", link("    geoms:\n      - {type: box, half_extents: [1, 1, 1], radius: 1}\n"), "SCHEMA", "radius", "'radius' does not apply to a box"),
    ("axis_on_ball_joint.yaml", "links:\n  - name: arm\n    joint: {type: ball, axis: [0, 0, 1]}\n    mass: 1\n    inertia: [1, 1, 1]\n", "SCHEMA", "axis", "'axis' does not apply to a ball joint"),
    ("kp_on_velocity_actuator.yaml", GOOD_LINK + "actuators:\n  - {joint: arm, type: velocity, kp: 10, kv: 1}\n", "SCHEMA", "kp", "'kp' does not apply to a velocity actuator"),
    ("rpy_and_quat.yaml", link("    origin: {rpy: [0, 0, 1], quat: [1, 0, 0, 0]}\n"), "SCHEMA", "quat", "either rpy or quat, not both"),
    ("plane_normal_and_origin.yaml", "world:\n  geoms:\n    - {type: plane, origin: {xyz: [0, 0, 1]}, normal: [0, 0, 1]}\n" + GOOD_LINK, "SCHEMA", "normal", "either normal/point or origin"),
    ("mu_and_mu_static.yaml", "materials:\n  - {name: ice, mu: 0.05, mu_static: 0.1}\n" + GOOD_LINK, "SCHEMA", "mu:", "give either mu or mu_static"),
    ("patch_radius_on_friction_contact.yaml", GOOD_LINK + "contacts:\n  - {link: arm, patch_radius: 0.01}\n", "SCHEMA", "patch_radius", "does not apply to a friction contact"),
    ("initial_wrong_length.yaml", "links:\n  - {name: box, joint: free, mass: 1, inertia: [1, 1, 1]}\ninitial:\n  - {joint: box, q: [0, 0, 1]}\n", "SCHEMA", "[0, 0, 1]", "expected a list of 7 numbers, got 3"),
    ("initial_bad_quaternion.yaml", "links:\n  - {name: box, joint: free, mass: 1, inertia: [1, 1, 1]}\ninitial:\n  - {joint: box, q: [0, 0, 1, 1, 1, 0, 0]}\n", "SCHEMA", "[0, 0, 1, 1", "has norm 1.41421, expected 1"),
    ("no_inertia_no_geoms.yaml", "links:\n  - {name: arm, joint: revolute, mass: 1}\n", "SCHEMA", "{name: arm", "no inertia given, and no solid geoms"),
    ("plot_column_unknown.yaml", GOOD_LINK + "simulate:\n  plot_columns: [arm.qq]\n", "SCHEMA", "arm.qq", "no trajectory column 'arm.qq' (did you mean 'arm.q'?)"),
    # ---- what only lk_model_finalize() rejects, located at the key
    ("inertia_not_positive.yaml", link().replace("[0.01, 0.01, 0.01]", "[0.01, 0.01, -0.01]"), "MODEL", "[0.01", "not positive definite"),
    ("inertia_triangle.yaml", link().replace("[0.01, 0.01, 0.01]", "[0.01, 0.01, 0.05]"), "MODEL", "[0.01", "violate the triangle inequality"),
    ("mu_dynamic_above_static.yaml", "materials:\n  - {name: ice, mu_static: 0.05, mu_dynamic: 0.1}\n" + GOOD_LINK, "MODEL", "0.1}", "mu_dynamic 0.1 exceeds mu_static 0.05"),
    ("massless_with_inertia.yaml", "links:\n  - {name: frame, joint: fixed, mass: 0, inertia: [1, 1, 1]}\n", "MODEL", "[1, 1, 1]", "massless link cannot have rotational inertia"),
    # ---- issue 30: one number reader, XML entities, MJCF classes, huge positions
    ("mass_underflow.yaml", link().replace("mass: 1.0", "mass: 1e-400"), "SCHEMA", "1e-400", "is too small (it would round to 0"),
    ("mass_overflow.yaml", link().replace("mass: 1.0", "mass: 2e308"), "SCHEMA", "2e308", "is out of range"),
    ("urdf_hex_mass.urdf", urdf(mass="0x1p1"), "SCHEMA", "@4:0", 'value="0x1p1" is not a finite number'),
    ("urdf_mass_underflow.urdf", urdf(mass="1e-400"), "SCHEMA", "@4:0", "1e-400 is too small"),
    ("urdf_mass_overflow.urdf", urdf(mass="-1e400"), "SCHEMA", "@4:0", "-1e400 is out of range"),
    ("mjcf_hex_timestep.xml", '<mujoco>\n  <option timestep="0x1p-9"/>\n  <worldbody/>\n</mujoco>\n', "SCHEMA", "@2:0", 'timestep="0x1p-9" is not a finite number'),
    ("mjcf_size_underflow.xml", '<mujoco>\n  <worldbody>\n    <body>\n      <freejoint/>\n      <geom type="sphere" size="3e-330" mass="1"/>\n    </body>\n  </worldbody>\n</mujoco>\n', "SCHEMA", "@5:0", "3e-330 is too small"),
    ("urdf_external_entity.urdf", urdf(doctype='<!DOCTYPE robot [\n  <!ENTITY m SYSTEM "/etc/hostname">\n]>\n', extra="&m;"), "PARSE", "@2:0", "external entity 'm' refused"),
    ("urdf_undeclared_entity.urdf", urdf(doctype='<!DOCTYPE robot SYSTEM "robot.dtd">\n', mass="&m;"), "PARSE", "@5:0", "&m; cannot be expanded"),
    ("urdf_entity_element.urdf", urdf(doctype='<!DOCTYPE robot [<!ENTITY s "<sensor/>">]>\n', extra="&s;"), "SCHEMA", "@4:0", "unknown element <sensor>"),
    ("mjcf_class_twice.xml", '<mujoco>\n  <default>\n    <default class="a"/>\n    <default class="a"/>\n  </default>\n  <worldbody/>\n</mujoco>\n', "SCHEMA", "@4:0", "class 'a' is defined twice"),
    ("initial_huge_angle.yaml", link().replace("name: arm", "name: arm", 1) + "initial:\n  - {joint: arm, q: 1e17}\n", "MODEL", "arm, q", "initial position 1e+17 is beyond the bound |q| <= 1e+06"),
]

STATUS = {"PARSE": "LK_PARSE_ERROR", "SCHEMA": "LK_SCHEMA_ERROR", "MODEL": "LK_INVALID_MODEL"}

def position(text, anchor):
    if anchor == "-":
        return 0, 0
    if anchor.startswith("@") and ":" in anchor:
        l, c = anchor[1:].split(":")
        return int(l), int(c)
    nth = 1
    if "@" in anchor[1:]:
        anchor, n = anchor.rsplit("@", 1)
        nth = int(n)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    i = -1
    for _ in range(nth):
        i = text.index(anchor, i + 1)
    line = text.count("\n", 0, i) + 1
    col = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, col

def main():
    rows = []
    names = set()
    for name, text, status, anchor, fragment in CASES:
        assert name not in names, name
        names.add(name)
        data = text if isinstance(text, bytes) else text.encode()
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)
        line, col = position(text, anchor)
        rows.append(f"{name}\t{STATUS[status]}\t{line}\t{col}\t{fragment}")
    with open(os.path.join(HERE, "MANIFEST"), "w") as f:
        f.write("# file\tstatus\tline\tcolumn\tmessage fragment (see make_corpus.py)\n")
        f.write("\n".join(rows) + "\n")
    print(len(rows), "cases")

if __name__ == "__main__":
    main()
