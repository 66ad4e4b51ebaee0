import { expect } from 'chai'
import { startTestServer, type TestServer } from '../support/server.js'

describe('web server smoke', () => {
  let s: TestServer
  before(async () => { s = await startTestServer() })
  after(async () => { await s.close() })

  it('answers status with a session and refuses without one', async () => {
    const ok = await s.api('/api/system/status')
    expect(ok.status).to.equal(200)
    expect(ok.body.success).to.equal(true)
    expect(ok.body.data.status).to.equal('running')
    const no = await fetch(s.base + '/api/system/status')
    expect(no.status).to.equal(401)
    expect(await no.json()).to.deep.equal({ success: false, code: 'UNAUTHORIZED', message: 'Not authenticated' })
  })
})
