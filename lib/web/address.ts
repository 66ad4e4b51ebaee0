// Which addresses fetch_url may connect to: public unicast only. Loopback, private (RFC 1918, IPv6
// unique-local), link-local, CGNAT, multicast, broadcast, unspecified, documentation/benchmark/reserved
// ranges are refused; IPv6 forms that carry an IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by
// that IPv4 address. Odd IPv4 spellings (2130706433, 0x7f.1, 0177.0.0.1) are canonicalised by the
// WHATWG URL parser before they get here; parseAddress accepts them too (ipaddr.js).
import ipaddr from 'ipaddr.js'

type Parsed = ipaddr.IPv4 | ipaddr.IPv6

/** IPv6 ranges whose last 32 bits (6to4: bits 16-48) are an IPv4 address that decides. */
function embeddedV4 (v6: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = v6.range()
  const p = v6.parts
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') {
    return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 0xff, p[7]! >> 8, p[7]! & 0xff])
  }
  if (range === '6to4') return new ipaddr.IPv4([p[1]! >> 8, p[1]! & 0xff, p[2]! >> 8, p[2]! & 0xff])
  return undefined
}

function isPublic (addr: Parsed): boolean {
  if (addr.kind() === 'ipv4') return addr.range() === 'unicast'
  const v6 = addr as ipaddr.IPv6
  const v4 = embeddedV4(v6)
  if (v4) return isPublic(v4)
  // Only 2000::/3 is global unicast; the deprecated IPv4-compatible ::a.b.c.d lies outside it.
  return v6.range() === 'unicast' && (v6.parts[0]! & 0xe000) === 0x2000
}

/** The address as ipaddr.js reads it (IPv6 without brackets, zone ids refused), or undefined. */
function parseAddress (text: string): Parsed | undefined {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  if (bare.includes('%')) return undefined
  try { return ipaddr.parse(bare) } catch { return undefined }
}

/** True when `text` is an IP address (any spelling ipaddr.js reads). */
export function isAddressLiteral (text: string): boolean {
  return parseAddress(text) !== undefined
}

/** True when `text` is a public unicast address; false for any other address or non-address. */
export function isPublicAddress (text: string): boolean {
  const parsed = parseAddress(text)
  return parsed !== undefined && isPublic(parsed)
}
