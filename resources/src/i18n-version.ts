// Texts of the overview's version card (version-card.tsx), zh-CN and en. Merged into i18n.ts's dictionaries.
type Dict = Record<string, string>

export const versionZh: Dict = {
  'vc.title': '版本',
  'vc.version': '版本号', 'vc.commit': '提交', 'vc.date': '提交时间', 'vc.branch': '分支',
  'vc.dirty': '本地有改动', 'vc.dirtyHint': '插件的文件被手动改过：#lx更新 会拒绝更新，#lx强制更新 会丢弃这些改动。',
  'vc.noGit': '插件目录不是独立的 git 克隆（例如从压缩包安装），没有提交信息，也不能检查或更新。按 README 用 git clone 安装后即可。',
  'vc.check': '检查更新', 'vc.checking': '正在检查…',
  'vc.upToDate': '已是最新', 'vc.behind': '{n} 个新提交', 'vc.behindOne': '1 个新提交', 'vc.ahead': '本地有 {n} 个提交远程没有',
  'vc.checkedAt': '检查于 {time}（{upstream}）', 'vc.more': '只列出最新的 {n} 个',
  'vc.hash': '提交', 'vc.subject': '说明',
  'vc.howTo': '更新方法：主人在 QQ 中向机器人发送 #lx更新（拉取新提交，需要时安装依赖，然后重启）；有本地改动时用 #lx强制更新。检查只读取远程，不会改动插件。',
  'vc.err.noGit': '插件目录不是独立的 git 克隆，无法检查更新。请按 README 用 git clone 安装。',
  'vc.err.noUpstream': '当前分支没有跟踪远程分支，不知道去哪里检查。在插件目录运行 git branch -u origin/<分支名> 后再试。',
  'vc.err.fetch': '连接不上远程仓库（git fetch 失败），请检查网络或仓库地址。',
  'vc.err.busy': '正在更新中，请稍后再检查。',
  'vc.err.detail': '详情：',
  'vc.deps.title': '缺少依赖包，部分功能已关闭',
  'vc.deps.missing': '缺少的包', 'vc.sep': '、', 'vc.deps.installed': '已安装 {v}，需要 {range}',
  'vc.deps.off': '关闭的功能', 'vc.deps.run': '在服务器上运行以下命令安装，然后重启机器人：',
  'vc.deps.failed': '启动时自动安装失败（{s} 秒）：', 'vc.deps.orUpdate': '也可以在 QQ 中发送 #lx更新，它会在需要时安装依赖。',
  'vc.copy': '复制命令', 'vc.copied': '已复制', 'vc.copyManual': '无法访问剪贴板：命令已选中，请按 Ctrl+C 复制'
}

export const versionEn: Dict = {
  'vc.title': 'Version',
  'vc.version': 'Version', 'vc.commit': 'Commit', 'vc.date': 'Committed', 'vc.branch': 'Branch',
  'vc.dirty': 'locally changed', 'vc.dirtyHint': 'Files of the plugin were changed by hand: #lx更新 refuses to update, #lx强制更新 drops these changes.',
  'vc.noGit': 'The plugin folder is not a git checkout of its own (installed from an archive?): no commit to show, and no checking or updating. Install it with git clone as the README says.',
  'vc.check': 'Check for updates', 'vc.checking': 'Checking…',
  'vc.upToDate': 'Up to date', 'vc.behind': '{n} new commits', 'vc.behindOne': '1 new commit', 'vc.ahead': '{n} local commits the remote does not have',
  'vc.checkedAt': 'checked {time} ({upstream})', 'vc.more': 'only the newest {n} are listed',
  'vc.hash': 'Commit', 'vc.subject': 'Subject',
  'vc.howTo': 'To update, the master sends #lx更新 to the bot in QQ (it pulls the new commits, installs packages when needed, then restarts); with local changes, #lx强制更新. Checking only reads the remote: it changes nothing.',
  'vc.err.noGit': 'The plugin folder is not a git checkout of its own, so updates cannot be checked. Install it with git clone as the README says.',
  'vc.err.noUpstream': 'The current branch follows no remote branch, so there is nothing to check against. Run git branch -u origin/<branch> in the plugin folder, then try again.',
  'vc.err.fetch': 'Could not reach the remote repository (git fetch failed): check the network or the remote address.',
  'vc.err.busy': 'An update is running: check again in a moment.',
  'vc.err.detail': 'Details: ',
  'vc.deps.title': 'Packages are missing: some features are off',
  'vc.deps.missing': 'Missing packages', 'vc.sep': ', ', 'vc.deps.installed': '{v} installed, {range} needed',
  'vc.deps.off': 'Features off', 'vc.deps.run': 'Run this on the server to install them, then restart the bot:',
  'vc.deps.failed': 'The install at start failed ({s} s): ', 'vc.deps.orUpdate': 'Or send #lx更新 in QQ: it installs missing packages too.',
  'vc.copy': 'Copy command', 'vc.copied': 'Copied', 'vc.copyManual': 'No clipboard access: the command is selected, press Ctrl+C'
}
