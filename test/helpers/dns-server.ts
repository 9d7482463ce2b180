// A real DNS server on 127.0.0.1 (UDP) answering TXT and CNAME from a zone the test edits: DNS_SERVERS points at it.
import { createSocket } from 'node:dgram';
import * as packet from 'dns-packet';

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  txt: Map<string, string[]>;
  cname: Map<string, string>;
  /** Questions asked, `TYPE name`, in order. */
  asked: string[];
  close(): Promise<void>;
}

/**
 * Answers TXT and CNAME questions from `txt` and `cname` (names lower case, no trailing dot); NXDOMAIN for
 * a name it has nothing for, an empty NOERROR for a name with records of another type.
 *
 * @example
 * const dns = await startDnsServer();
 * dns.txt.set('_demoshare.demos.example.com', ['demoshare-verification=…']);
 * createTestApp({ config: { DNS_SERVERS: [dns.address] } });
 */
export async function startDnsServer(): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  const txt = new Map<string, string[]>();
  const cname = new Map<string, string>();
  const asked: string[] = [];
  socket.on('message', (message, peer) => {
    let query: packet.Packet;
    try {
      query = packet.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, '');
    asked.push(`${question.type} ${name}`);
    const answers: packet.Answer[] = [];
    if (question.type === 'TXT') for (const value of txt.get(name) ?? []) answers.push({ type: 'TXT', name: question.name, ttl: 1, data: value });
    if (question.type === 'CNAME' && cname.has(name)) answers.push({ type: 'CNAME', name: question.name, ttl: 1, data: cname.get(name) as string });
    const known = txt.has(name) || cname.has(name);
    const reply = packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.AUTHORITATIVE_ANSWER | (known ? 0 : 3), // rcode 3: NXDOMAIN
      questions: query.questions,
      answers,
    });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  return {
    address: `127.0.0.1:${port}`,
    txt,
    cname,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
