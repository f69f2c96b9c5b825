import { parseWithZod } from '@conform-to/zod/v4'
import { Form, redirect } from 'react-router'
import { z } from 'zod'
import { LocalDate } from '#app/components/local-date.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { listContactSubmissions, markContactSubmissionRead } from '#app/models/messaging/contact-submissions.server.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { cn } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { partialPage } from '#app/utils/page-toast.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { CONTACT_PATH } from './+shared/paths.ts'
import type { Route } from './+types/contact'

const ContactReadSchema = z.object({ intent: z.literal('contact-read'), submissionId: z.coerce.number().int().positive() })

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const page = partialPage('admin messages')
	const submissions = await page.load(listContactSubmissions(getDb()), [], 'Failed to load contact submissions')
	return { submissions, pageToast: page.pageToast() }
}

/** Marks a contact-form submission read. */
export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const db = getDb()
	const submission = parseWithZod(await readFormData(request), { schema: ContactReadSchema })
	const marked =
		submission.status === 'success' &&
		(await db.transaction().execute(async (trx) => {
			const found = await markContactSubmissionRead(trx, submission.value.submissionId)
			if (found) {
				await recordAudit(trx, {
					actorId: admin.id,
					action: 'contact_submission.read',
					entity: 'contact_submission',
					entityId: submission.value.submissionId,
				})
			}
			return found
		}))
	if (!marked) return redirectWithToast(CONTACT_PATH, { type: 'error', title: 'Failed to mark message as read' })
	return redirect(CONTACT_PATH)
}

export default function ContactSubmissions({ loaderData }: Route.ComponentProps) {
	const { submissions } = loaderData
	return (
		<Card>
			<CardHeader>
				<CardTitle>Contact Form Submissions</CardTitle>
			</CardHeader>
			<CardContent>
				{submissions.length === 0 ? (
					<EmptyState title="No contact submissions yet" />
				) : (
					<ul className="space-y-3">
						{submissions.map((submission) => (
							<li
								key={submission.id}
								className={cn('rounded-lg border p-4', submission.read ? 'border-slate-200 bg-white' : 'border-amber-300 bg-amber-50')}
							>
								<article aria-label={`Message from ${submission.name}`}>
									<div className="flex flex-wrap items-start justify-between gap-2">
										<div>
											<h3 className="flex flex-wrap items-center gap-2 font-semibold text-ink">
												{submission.name}
												{submission.read ? null : <Badge tone="orange">Unread</Badge>}
												{submission.kind === 'waitlist' ? <Badge tone="blue">Waitlist: {submission.program}</Badge> : null}
											</h3>
											<p className="text-sm text-slate-700">
												<a href={`mailto:${submission.email}`} className="text-brand-800 underline underline-offset-2">
													{submission.email}
												</a>
												{submission.phone ? <span> · {submission.phone}</span> : null}
											</p>
											<p className="text-xs text-slate-600">
												<LocalDate value={submission.created_at} time />
											</p>
										</div>
										{submission.read ? null : (
											<Form method="post" preventScrollReset>
												<input type="hidden" name="intent" value="contact-read" />
												<input type="hidden" name="submissionId" value={submission.id} />
												<Button type="submit" size="sm" variant="outline">
													Mark as read
												</Button>
											</Form>
										)}
									</div>
									<p className="mt-2 whitespace-pre-wrap text-slate-800">{submission.message}</p>
								</article>
							</li>
						))}
					</ul>
				)}
			</CardContent>
		</Card>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Contact Form')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
