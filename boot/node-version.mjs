// The Node.js version check index.js runs before it imports anything else. The plugin's code needs
// Node >= 20.19 (RegExp `v` flag, require(esm), ...): on an older Node (Miao-Yunzai's README still
// recommends 18) loading it failed deep inside with "Invalid flags supplied to RegExp constructor
// 'gv'". Plain JavaScript in the oldest syntax on purpose: this file must parse on any Node.

/** Keep equal to package.json `engines.node` (a test checks it). */
export var MIN_NODE = '20.19.0'

function parts (v) {
  return String(v).replace(/^v/, '').split('.').map(function (n) { return parseInt(n, 10) || 0 })
}

/** The one log line refusing to load on `version` (process.versions.node), or null when it is supported. */
export function nodeRefusal (version) {
  var have = parts(version)
  var need = parts(MIN_NODE)
  for (var i = 0; i < 3; i++) {
    if ((have[i] || 0) > need[i]) return null
    if ((have[i] || 0) < need[i]) {
      return '[lingxi] 灵犀插件需要 Node.js >= ' + MIN_NODE + '，当前为 ' + version + '，插件未加载；请升级 Node.js ' +
        '(lingxi-plugin needs Node.js >= ' + MIN_NODE + ', this is ' + version + ': not loaded)'
    }
  }
  return null
}

/** Logs the refusal through the host's logger (or the console) and says whether to stop loading. */
export function refuseOldNode (version) {
  var line = nodeRefusal(version)
  if (line === null) return false
  var log = globalThis.logger
  if (log && typeof log.error === 'function') log.error(line)
  else console.error(line)
  return true
}
