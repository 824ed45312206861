// The box's Signal K deltas through the Signal K specification's own delta parser, for
// scripts/network/signalk_client.py: FullSignalK (src/fullsignalk.js of the specification,
// the npm package @signalk/signalk-schema), which folds deltas into the full model.
//
// usage: NODE_PATH=/usr/share/nodejs node signalk_fullsignalk.js SPEC_DIR < deltas
// SPEC_DIR holds the specification's src/ and schemas/ (not shipped with this project);
// lodash and debug come from Debian's node-lodash and node-debug. Reads one delta a line;
// after each, every value it carries must be the model's value at its path, with the
// delta's timestamp and the source the parser names for it. Prints one JSON line: the
// deltas applied, the problems found (at most 10) and the model's anchor and notifications.
'use strict'
const fs = require('fs')
const os = require('os')
const path = require('path')
const readline = require('readline')
// src/index.js requires src/keyswithmetadata.json, which the specification's build makes from
// its schemas (scripts/processSchemaFiles.js, with npm-only tools). Without it, the parser runs
// from a temporary copy of src/ with that file empty: the model then carries no units or other
// metadata, which nothing here checks; the values, timestamps and sources are folded alike.
let spec = process.argv[2]
if (!fs.existsSync(path.join(spec, 'src', 'keyswithmetadata.json'))) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'signalk-spec-'))
  fs.cpSync(path.join(spec, 'src'), path.join(tmp, 'src'), { recursive: true })
  fs.symlinkSync(path.resolve(spec, 'schemas'), path.join(tmp, 'schemas'))
  fs.writeFileSync(path.join(tmp, 'src', 'keyswithmetadata.json'), '{}')
  process.on('exit', () => fs.rmSync(tmp, { recursive: true, force: true }))
  spec = tmp
}
const FullSignalK = require(path.join(spec, 'src', 'fullsignalk.js'))
const { getSourceId } = require(path.join(spec, 'src', 'index.js'))

const self = 'urn:mrn:signalk:uuid:c0d79334-4e25-4245-8892-54e8ccc8021d'
const model = new FullSignalK(self, 'vessels')
const problems = []
let applied = 0

function at(root, dotted) {
  return dotted.split('.').reduce((node, part) => (node == null ? undefined : node[part]), root)
}

const lines = readline.createInterface({ input: process.stdin })
lines.on('line', (line) => {
  if (!line.trim()) return
  let delta
  try {
    delta = JSON.parse(line)
  } catch (e) {
    problems.push('not JSON: ' + e.message)
    return
  }
  // vessels.self is how a device names the server's own vessel; the server maps it to its
  // own id before the model (signalk-server's handleMessage), as done here.
  if (delta.context === 'vessels.self') delta.context = 'vessels.' + self
  try {
    model.addDelta(delta)
  } catch (e) {
    problems.push('addDelta threw: ' + e.message)
    return
  }
  applied++
  const vessel = model.retrieve().vessels[self]
  for (const u of delta.updates) {
    const source = getSourceId(u.source)
    for (const v of u.values) {
      const leaf = at(vessel, v.path)
      const got = leaf && leaf.value
      if (JSON.stringify(got) !== JSON.stringify(v.value) || leaf.timestamp !== u.timestamp || leaf.$source !== source) {
        if (problems.length < 10) problems.push(v.path + ': model ' + JSON.stringify(leaf) + ' for ' + JSON.stringify(v.value))
      }
    }
  }
})
lines.on('close', () => {
  const vessel = model.retrieve().vessels[self] || {}
  const value = (p) => { const l = at(vessel, p); return l ? l.value : undefined }
  console.log(JSON.stringify({
    applied,
    problems,
    sources: Object.keys(model.retrieve().sources),
    anchor: value('navigation.anchor.position'),
    maxRadius: value('navigation.anchor.maxRadius'),
    alarm: value('notifications.navigation.anchor'),
    gnss: value('notifications.navigation.gnss'),
  }))
})
