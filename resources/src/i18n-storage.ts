// Texts of the storage card on the overview (instances-card.tsx), zh-CN and en. Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const storageZh: Dict = {
  'st.title': '存储与实例', 'st.database': '数据存放', 'st.db.files': '本机数据文件夹', 'st.db.postgresql': 'PostgreSQL（共享）',
  'st.redis': '共享 Redis', 'st.none': '未使用', 'st.instances': '在线实例', 'st.name': '实例', 'st.started': '启动于',
  'st.lastSeen': '最近心跳', 'st.self': '本实例', 'st.secondsAgo': '{n} 秒前'
}

export const storageEn: Dict = {
  'st.title': 'Storage and instances', 'st.database': 'Data', 'st.db.files': 'this machine\'s data folder', 'st.db.postgresql': 'PostgreSQL (shared)',
  'st.redis': 'Shared Redis', 'st.none': 'none', 'st.instances': 'Instances online', 'st.name': 'Instance', 'st.started': 'Started',
  'st.lastSeen': 'Last heartbeat', 'st.self': 'this one', 'st.secondsAgo': '{n} s ago'
}
