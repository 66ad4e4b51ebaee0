// The storage addresses hold passwords (storage.database.url, storage.redis.url): shown masked, kept when a
// masked value comes back, and redacted from logs (lib/config/secrets.ts, lib/core/redact.ts).
import { expect } from 'chai'
import { keepMaskedSecrets, maskSecrets, maskUrlPassword } from '../../lib/config/secrets.js'
import { configSecrets, Redactor } from '../../lib/core/redact.js'
import { redactUrl } from '../../lib/storage/pg/pool.js'

const config = {
  storage: {
    database: { url: 'postgres://lingxi:s3cret-Pass@db.example:5432/lingxi' },
    redis: { url: 'redis://:r3dis-Pass@cache:6379/0' },
    instanceName: 'bot-a'
  },
  other: { url: 'https://example.com/path', plain: 'postgres://db:5432/x' }
}

describe('storage: addresses with a password are secrets', () => {
  it('masks only the password of an address, whatever the key', () => {
    expect(maskUrlPassword('postgres://u:p4ss@h:5432/d')).to.equal('postgres://u:****@h:5432/d')
    expect(maskUrlPassword('redis://:p4ss@h:6379')).to.equal('redis://:****@h:6379')
    expect(maskUrlPassword('postgres://u@h/d')).to.equal(undefined)
    expect(maskUrlPassword('https://example.com/a:b@c')).to.equal(undefined)
    const masked = maskSecrets(config)
    expect(masked.storage.database.url).to.equal('postgres://lingxi:****@db.example:5432/lingxi')
    expect(masked.storage.redis.url).to.equal('redis://:****@cache:6379/0')
    expect(masked.other).to.deep.equal(config.other)
    expect(JSON.stringify(masked)).to.not.include('s3cret').and.not.include('r3dis')
  })

  it('a masked address sent back keeps the stored one; a changed one is taken', () => {
    const back = keepMaskedSecrets(maskSecrets(config), config)
    expect(back).to.deep.equal(config)
    const changed = keepMaskedSecrets({ storage: { ...config.storage, database: { url: 'postgres://lingxi:new-Pass@db2:5432/lingxi' } } }, config)
    expect(changed.storage.database.url).to.equal('postgres://lingxi:new-Pass@db2:5432/lingxi')
  })

  it('the redactor built from the config masks the addresses in log text', () => {
    const r = new Redactor()
    r.set('config', configSecrets(config))
    const line = r.redact(`connecting to ${config.storage.database.url} and ${config.storage.redis.url}`)
    expect(line).to.not.include('s3cret-Pass').and.not.include('r3dis-Pass')
  })

  it('the PostgreSQL code shows an address with its password masked', () => {
    expect(redactUrl('postgres://lingxi:s3cret-Pass@db.example:5432/lingxi')).to.equal('postgres://lingxi:****@db.example:5432/lingxi')
  })
})
