import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = {
	from: string | undefined
	to: string[]
	/** The first Subject header, unfolded (not MIME-decoded: keep test subjects ASCII). */
	subject: string | undefined
	/** The whole message as received, headers and MIME body. */
	raw: string
}

export type TestSmtpServer = {
	/** An smtp:// URL for SMTP_URL / SmtpTransport. */
	url: string
	port: number
	messages: ReceivedMail[]
	stop: () => Promise<void>
	/** Listens again on the same port after stop(). */
	start: () => Promise<void>
}

/** A real SMTP server (smtp-server) on a free loopback port: no TLS, no auth, keeps every message. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
	const messages: ReceivedMail[] = []
	let server: SMTPServer | undefined
	let port = 0

	const start = async () => {
		const next = new SMTPServer({
			authOptional: true,
			disabledCommands: ['STARTTLS'],
			logger: false,
			onData(stream, session, callback) {
				const chunks: Buffer[] = []
				stream.on('data', (chunk: Buffer) => chunks.push(chunk))
				stream.on('end', () => {
					const raw = Buffer.concat(chunks).toString('utf8')
					const mailFrom = session.envelope.mailFrom
					messages.push({
						from: mailFrom ? mailFrom.address : undefined,
						to: session.envelope.rcptTo.map((recipient) => recipient.address),
						subject: headerOf(raw, 'subject'),
						raw,
					})
					callback()
				})
			},
		})
		await new Promise<void>((resolve, reject) => {
			next.server.once('error', reject)
			next.listen(port, '127.0.0.1', () => {
				next.server.off('error', reject)
				resolve()
			})
		})
		port = (next.server.address() as AddressInfo).port
		server = next
	}

	await start()
	return {
		get url() {
			return `smtp://127.0.0.1:${port}`
		},
		get port() {
			return port
		},
		messages,
		start,
		stop: async () => {
			const running = server
			server = undefined
			if (running) await new Promise<void>((resolve) => running.close(() => resolve()))
		},
	}
}

function headerOf(raw: string, name: string) {
	const headers = raw.split(/\r?\n\r?\n/, 1)[0]?.replace(/\r?\n[ \t]+/g, ' ') ?? ''
	const line = headers.split(/\r?\n/).find((header) => header.toLowerCase().startsWith(`${name}:`))
	return line?.slice(name.length + 1).trim()
}
