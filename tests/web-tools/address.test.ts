// lib/web/address.ts: which addresses fetch_url may reach. Public unicast passes (also inside an
// IPv4-mapped IPv6 address); every non-public range is refused in each spelling. Both checks are async
// (ipaddr.js is loaded on first use, lib/core/packages.ts).
import { expect } from 'chai'
import { isAddressLiteral, isPublicAddress } from '../../lib/web/address.js'

describe('web tools: public and non-public addresses', () => {
  it('public IPv4 and IPv6 addresses pass, also IPv4-mapped and bracketed', async () => {
    for (const a of ['8.8.8.8', '93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '[2001:4860:4860::8888]', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
      expect(await isPublicAddress(a), a).to.equal(true)
    }
  })

  it('loopback, private, link-local, CGNAT, multicast, broadcast, unspecified, reserved: refused in every spelling', async () => {
    for (const a of [
      '127.0.0.1', '127.255.255.254', '2130706433', '0x7f000001', '0x7f.1', '0177.0.0.1', '127.1', '10.0.0.1', '172.16.0.1', '172.31.255.255',
      '192.168.0.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', '224.0.0.1', '239.255.255.250', '255.255.255.255', '0.0.0.0', '0.1.2.3',
      '192.0.2.1', '198.18.0.1', '240.0.0.1', '::', '::1', '[::1]', '::ffff:127.0.0.1', '::ffff:7f00:1', '0:0:0:0:0:ffff:a00:1', '::127.0.0.1',
      'fe80::1', 'febf::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'ff05::2', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '2002:c0a8:101::',
      '2001:db8::1', '2001::1', 'fec0::1', '100::1'
    ]) expect(await isPublicAddress(a), a).to.equal(false)
  })

  it('names and zone ids are not address literals (names are resolved and their addresses checked)', async () => {
    expect(await isAddressLiteral('example.com')).to.equal(false)
    expect(await isAddressLiteral('localhost')).to.equal(false)
    expect(await isAddressLiteral('fe80::1%eth0')).to.equal(false)
    expect(await isPublicAddress('fe80::1%eth0')).to.equal(false)
    expect(await isAddressLiteral('[::1]')).to.equal(true)
  })
})
