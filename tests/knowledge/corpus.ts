// Small labelled corpora for ranking tests: each query's relevant document must rank in the top 3.
export const ZH_DOCS = [
  { title: '火锅底料的炒制', content: '重庆火锅的灵魂在于牛油底料。先将牛油小火融化，加入郫县豆瓣酱、干辣椒、花椒，慢炒出红油，再加入冰糖和醪糟提味。炒制时间约四十分钟，火候过大会发苦。' },
  { title: '上海地铁换乘指南', content: '上海地铁目前有二十多条线路。人民广场站可在一号线、二号线、八号线之间换乘；世纪大道站是四线换乘站。高峰时段建议避开二号线陆家嘴方向。' },
  { title: '猫咪日常护理', content: '家里养猫需要定期梳毛，长毛猫每天梳理一次可以减少毛球。猫砂盆要每天清理，每周彻底更换猫砂。成年猫每年接种一次疫苗并做体内外驱虫。' },
  { title: 'Python 虚拟环境', content: '使用 venv 创建虚拟环境：python -m venv .venv，然后激活环境再用 pip 安装依赖。不同项目使用独立的虚拟环境可以避免依赖冲突。' },
  { title: '北京秋季旅行', content: '北京的秋天天高气爽，香山红叶在十月中下旬最美。故宫需要提前在网上预约门票，周一闭馆。胡同里可以品尝豆汁和炸酱面。' },
  { title: '机器人插件安装', content: '将灵犀插件克隆到 Yunzai 的 plugins 目录，执行 pnpm install 安装依赖后重启机器人。主人发送 #lx面板 获取管理面板的登录链接。' },
  { title: '咖啡手冲参数', content: '手冲咖啡常用粉水比为一比十五，水温九十二度左右。研磨度接近细砂糖，总萃取时间控制在两分半到三分钟之间。' },
  { title: '篮球投篮训练', content: '投篮训练要先固定出手点，保持肘部对准篮筐。每天练习两百次定点投篮，再逐步加入运球后急停跳投。' }
]

export const ZH_QUERIES: Array<[string, number]> = [
  ['火锅底料怎么炒', 0], ['人民广场换乘', 1], ['猫砂多久换一次', 2], ['python 虚拟环境 依赖冲突', 3],
  ['香山红叶什么时候去', 4], ['插件怎么安装', 5], ['手冲咖啡水温', 6], ['投篮', 7], ['猫', 2]
]

export const EN_DOCS = [
  { title: 'Sourdough starter', content: 'Feed the sourdough starter with equal weights of flour and water every twelve hours. A healthy starter doubles in size within six hours and smells pleasantly sour.' },
  { title: 'Changing a bicycle tire', content: 'Release the brake, remove the wheel, and use tire levers to pry the tire off the rim. Check the inside of the tire for thorns before fitting a new inner tube.' },
  { title: 'Git rebase basics', content: 'An interactive rebase rewrites commits: git rebase -i HEAD~3 lets you squash, reorder or edit the last three commits. Never rebase commits that others have pulled.' },
  { title: 'Watering houseplants', content: 'Most houseplants prefer the soil to dry out slightly between waterings. Overwatering causes root rot; check the top inch of soil with a finger before watering.' },
  { title: 'Marathon training plan', content: 'A sixteen week marathon plan builds weekly mileage gradually, with one long run each weekend. Taper during the last two weeks before race day.' },
  { title: 'Home network security', content: 'Change the default router password, enable WPA3 encryption, and keep the router firmware updated. Put smart home devices on a separate guest network.' },
  { title: 'Brewing green tea', content: 'Green tea turns bitter with boiling water. Brew it at about eighty degrees Celsius for two minutes; high quality leaves can be steeped several times.' },
  { title: 'Chess openings for beginners', content: 'The Italian Game and the Queen\'s Gambit are solid openings. Control the center, develop knights before bishops, and castle early to protect the king.' }
]

export const EN_QUERIES: Array<[string, number]> = [
  ['how to feed a sourdough starter', 0], ['flat bicycle tire inner tube', 1], ['squash commits with rebase', 2], ['root rot overwatering', 3],
  ['marathon taper', 4], ['router password WPA3', 5], ['green tea temperature', 6], ['chess opening castle king', 7]
]
