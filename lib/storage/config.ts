// The `storage` section (lib/storage, README "Several bots"): the optional shared engines that make several
// copies of the plugin one installation. Empty: the embedded files of the data folder, nothing to install.
// The environment wins over the file (LINGXI_DATABASE_URL, LINGXI_REDIS_URL: lib/storage/settings.ts), so an
// owner can keep the password out of config.yaml. lib/config/README.md, "A domain's section".
import { z } from 'zod'
import { doc, sectionDefaults } from '../config/field-doc.js'

const database = doc(z.strictObject({
  url: doc(z.union([z.literal(''), z.string().max(2000).regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')]), ['PostgreSQL address', 'PostgreSQL 地址',
    'postgres://user:password@host:5432/database; empty: the embedded files. LINGXI_DATABASE_URL wins over this. Shown masked.',
    'postgres://用户:密码@主机:5432/数据库；留空：使用内置文件。环境变量 LINGXI_DATABASE_URL 优先。显示时打码。'], { default: '' })
}), ['Database', '数据库', 'Where the durable data of every instance lives.', '所有实例的持久数据存放处。'])

const sharedRedis = doc(z.strictObject({
  url: doc(z.union([z.literal(''), z.literal('host'), z.string().max(2000).regex(/^rediss?:\/\//, 'must be host, or start with redis:// or rediss://')]), ['Redis address', 'Redis 地址',
    'redis://[:password@]host:6379[/db], or host: the Yunzai host\'s own Redis; empty: none (login links, limits and change notices stay in this instance). LINGXI_REDIS_URL wins over this. Shown masked.',
    'redis://[:密码@]主机:6379[/库号]，或 host：使用云崽宿主自己的 Redis；留空：不用（登录链接、限流和变更通知只在本实例）。环境变量 LINGXI_REDIS_URL 优先。显示时打码。'], { default: '' })
}), ['Redis', 'Redis', 'Shared short-lived state: login links, sessions, rate limits, locks, change notices.', '共享的短期状态：登录链接、会话、限流、锁、变更通知。'])

export const storageSection = doc(z.strictObject({
  database: database.prefault(sectionDefaults(database)),
  redis: sharedRedis.prefault(sectionDefaults(sharedRedis)),
  instanceName: doc(z.string().max(100), ['Instance name', '实例名称', 'How this copy is shown to the others (the dashboard overview); empty: host name and port.', '本实例在其他实例中显示的名字（控制台概览）；留空：主机名加端口。'], { default: '' })
}), ['Storage', '存储', 'Optional PostgreSQL and Redis shared by several copies of the plugin (several bots, one owner).', '可选的 PostgreSQL 与 Redis，供多个插件实例共享（一个主人、多个机器人）。'])
