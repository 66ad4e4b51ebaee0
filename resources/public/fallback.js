// Minimal page until the dashboard build is present: consumes the login link's token.
// A file, not an inline script: the dashboard's Content-Security-Policy allows no inline script.
const state = document.getElementById('state')
const show = (text, err) => { state.textContent = text; state.className = err ? 'err' : '' }
const base = location.pathname.startsWith('/lingxi') ? '/lingxi' : ''
async function api (path, opts = {}) {
  const token = sessionStorage.getItem('lingxi.token')
  const headers = { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }
  try {
    const res = await fetch(base + path, { ...opts, headers })
    return await res.json().catch(() => ({ success: false, message: `HTTP ${res.status}` }))
  } catch (err) { return { success: false, message: String(err) } }
}
const m = location.hash.match(/token=([^&]+)/)
if (m) {
  history.replaceState(null, '', location.pathname)
  const r = await api('/api/auth/login', { method: 'POST', body: JSON.stringify({ token: decodeURIComponent(m[1]) }) })
  if (r.success) { sessionStorage.setItem('lingxi.token', r.data.token); show('已登录 Logged in') } else show(r.message, true)
} else {
  const r = await api('/api/auth/verify')
  show(r.success ? `已登录 Logged in as ${r.data.userId}` : '请在聊天中向机器人发送 #lx面板 获取登录链接 / Send #lx panel to the bot for a login link', !r.success)
}
