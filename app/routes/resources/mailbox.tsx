import { sql } from 'kysely'
import { Fragment, type ReactNode } from 'react'
import { data, Form, href } from 'react-router'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { getDb } from '#app/utils/db.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { MAX_EMAIL_LENGTH } from '#app/utils/user-validation.ts'
import { requireMailboxReader } from './+shared/mailbox.server.ts'
import type { Route } from './+types/mailbox'

const PAGE_SIZE = 100

export async function loader({ request }: Route.LoaderArgs) {
	await requireMailboxReader(request)
	const to = searchText(new URL(request.url).searchParams, { name: 'to', maxLength: MAX_EMAIL_LENGTH }) || null
	let query = getDb()
		.selectFrom('email_outbox')
		.select((eb) => [
			'id',
			'to_address',
			'subject',
			'text_body',
			eb('html_body', 'is not', null).as('hasHtml'),
			'headers',
			'attachments',
			'status',
			'attempts',
			'last_error',
			'created_at',
			'sent_at',
		])
		.orderBy('created_at', 'desc')
		.orderBy('id', 'desc')
		.limit(PAGE_SIZE)
	if (to) query = query.where(sql<string>`lower(to_address)`, '=', to.toLowerCase())
	const mails = (await query.execute()).map(({ attachments, ...mail }) => ({
		...mail,
		// The page names the files; their content stays out of it.
		attachments: attachments.map(({ filename, contentType }) => ({ filename, contentType })),
	}))
	return data({ mails, to }, { headers: { 'Cache-Control': 'no-store' } })
}

type Mail = Route.ComponentProps['loaderData']['mails'][number]

const statusTones = { pending: 'yellow', sent: 'green', failed: 'red' } as const satisfies Record<Mail['status'], string>

export default function Mailbox({ loaderData }: Route.ComponentProps) {
	const { mails, to } = loaderData
	return (
		<main id="main" className="mx-auto w-full max-w-4xl px-4 py-8 sm:py-12">
			<h1 className="text-2xl font-bold text-ink sm:text-3xl">Mailbox</h1>
			<p className="mt-2 text-slate-600">
				Development mailbox: the newest {PAGE_SIZE} e-mails the app has queued. No SMTP server is configured, so nothing here has left the
				server.
			</p>
			<Form method="get" action="/dev/mailbox" className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-end">
				<Field
					// Remounts on client-side navigation so the box shows the filter in the URL.
					key={to ?? ''}
					label="Recipient"
					className="flex-1"
					inputProps={{ name: 'to', type: 'email', defaultValue: to ?? '', autoComplete: 'off' }}
				/>
				<div className="flex gap-2">
					<Button type="submit">Filter</Button>
					{to ? (
						<ButtonLink to="/dev/mailbox" variant="outline">
							Show all
						</ButtonLink>
					) : null}
				</div>
			</Form>
			{mails.length === 0 ? (
				<EmptyState
					className="mt-6"
					title="No e-mails yet"
					description={to ? `Nothing has been sent to ${to}.` : 'E-mails the app sends will appear here.'}
				/>
			) : (
				<ol className="mt-6 space-y-4">
					{mails.map((mail) => (
						<li key={mail.id}>
							<MailCard mail={mail} />
						</li>
					))}
				</ol>
			)}
		</main>
	)
}

function MailCard({ mail }: { mail: Mail }) {
	return (
		<Card>
			<CardHeader>
				<div className="flex flex-wrap items-start justify-between gap-2">
					<CardTitle>{mail.subject}</CardTitle>
					<Badge tone={statusTones[mail.status]}>{mail.status}</Badge>
				</div>
				<dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-700">
					<dt className="font-medium">To</dt>
					<dd className="break-all">{mail.to_address}</dd>
					<dt className="font-medium">Created</dt>
					<dd>
						<Timestamp value={mail.created_at} />
					</dd>
					{mail.sent_at ? (
						<>
							<dt className="font-medium">Delivered</dt>
							<dd>
								<Timestamp value={mail.sent_at} />
							</dd>
						</>
					) : null}
					{mail.last_error ? (
						<>
							<dt className="font-medium">Last error</dt>
							<dd>
								{mail.last_error} ({mail.attempts} {mail.attempts === 1 ? 'attempt' : 'attempts'})
							</dd>
						</>
					) : null}
					{Object.entries(mail.headers).map(([name, value]) => (
						<Fragment key={name}>
							<dt className="font-medium">{name}</dt>
							<dd className="break-all">{value}</dd>
						</Fragment>
					))}
					{mail.attachments.length > 0 ? (
						<>
							<dt className="font-medium">Attachments</dt>
							<dd>{mail.attachments.map((attachment) => `${attachment.filename} (${attachment.contentType})`).join(', ')}</dd>
						</>
					) : null}
				</dl>
			</CardHeader>
			<CardContent className="space-y-3">
				{mail.hasHtml ? (
					<section aria-label="HTML part">
						<iframe
							src={href('/dev/mailbox/:mailId/html', { mailId: String(mail.id) })}
							title={`HTML part of ${mail.subject}`}
							// No scripts, forms or same-origin rights; the response's own CSP says the same.
							sandbox=""
							loading="lazy"
							className="h-[32rem] w-full rounded-md border border-slate-200 bg-white"
						/>
						<a
							href={href('/dev/mailbox/:mailId/html', { mailId: String(mail.id) })}
							className="mt-1 inline-block text-sm text-brand-700 underline hover:text-brand-800"
						>
							Open the HTML part
						</a>
					</section>
				) : null}
				<section aria-label="Plain-text part">
					<h3 className="mb-1 text-sm font-medium text-slate-700">Plain text</h3>
					<div className="whitespace-pre-wrap rounded-md bg-slate-50 p-3 font-mono text-sm text-ink">{linkify(mail.text_body)}</div>
				</section>
			</CardContent>
		</Card>
	)
}

const utcTimestamp = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' })

/** Rendered in UTC so the server's and the browser's text agree. */
function Timestamp({ value }: { value: Date }) {
	const date = new Date(value)
	const text = utcTimestamp.format(date)
	return <time dateTime={date.toISOString()}>{text} UTC</time>
}

const urlPattern = /\bhttps?:\/\/[^\s<>"']+/g

/** Turns http(s) URLs in plain text into links; everything stays a React text node, never HTML. */
function linkify(text: string) {
	const nodes: ReactNode[] = []
	let position = 0
	for (const match of text.matchAll(urlPattern)) {
		// Punctuation that ends a sentence is not part of the link.
		const url = match[0].replace(/[.,;:!?)\]]+$/, '')
		if (match.index > position) nodes.push(text.slice(position, match.index))
		nodes.push(
			<a key={match.index} href={url} className="break-all text-brand-700 underline hover:text-brand-800">
				{url}
			</a>,
		)
		position = match.index + url.length
	}
	nodes.push(text.slice(position))
	return nodes
}

export const meta: Route.MetaFunction = () => [...pageTitle('Mailbox (development)'), { name: 'robots', content: 'noindex' }]

export function ErrorBoundary() {
	return (
		<main id="main" className="mx-auto max-w-2xl px-4 py-16">
			<GeneralErrorBoundary />
		</main>
	)
}
