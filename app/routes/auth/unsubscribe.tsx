import { data, Form, href } from 'react-router'
import { AuthCard } from '#app/components/auth/auth-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { getUnsubscribeTarget, setAnnouncementEmails, userOfUnsubscribeToken } from '#app/models/accounts/email-preferences.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/unsubscribe'

const INVALID_LINK = 'This unsubscribe link is not valid. Log in and turn announcement emails off under Settings.'

/** The account of the link's token, or null. */
async function targetOf(request: Request) {
	const token = new URL(request.url).searchParams.get('token')
	const userId = userOfUnsubscribeToken(token)
	const target = userId ? await getUnsubscribeTarget(getDb(), userId) : null
	return userId && target && token ? { userId, token, ...target } : null
}

/** Opening the link only shows the switch: mail scanners that fetch links must not unsubscribe anyone. */
export async function loader({ request }: Route.LoaderArgs) {
	const target = await targetOf(request)
	if (!target) return data({ target: null }, { status: 400, headers: { 'Cache-Control': 'no-store' } })
	return data(
		{ target: { email: target.email, announcements: target.announcements, token: target.token } },
		{ headers: { 'Cache-Control': 'no-store' } },
	)
}

/**
 * The page's button: turns announcement e-mails off, or back on (intent=resubscribe), with the
 * token of the address and no sign-in. Mail clients' one-click POSTs go to
 * routes/resources/unsubscribe-one-click.ts.
 */
export async function action({ request }: Route.ActionArgs) {
	const target = await targetOf(request)
	if (!target) return data({ error: INVALID_LINK }, { status: 400 })
	const resubscribe = (await readFormData(request)).get('intent') === 'resubscribe'
	await setAnnouncementEmails(getDb(), target.userId, resubscribe)
	return redirectWithToast(
		`${href('/unsubscribe')}?${new URLSearchParams({ token: target.token })}`,
		resubscribe
			? { type: 'success', title: 'You are subscribed again', description: 'New announcements will be emailed to you.' }
			: { type: 'success', title: 'You are unsubscribed', description: 'Announcements will no longer be emailed to you.' },
		{ status: 303 },
	)
}

export default function UnsubscribePage({ loaderData, actionData }: Route.ComponentProps) {
	const { target } = loaderData
	if (!target || actionData?.error) {
		return (
			<AuthCard title="Announcement emails">
				<Alert tone="error">{actionData?.error ?? INVALID_LINK}</Alert>
				<ButtonLink to={href('/dashboard/settings')} className="w-full">
					Go to Settings
				</ButtonLink>
			</AuthCard>
		)
	}
	const action = `${href('/unsubscribe')}?${new URLSearchParams({ token: target.token })}`
	return (
		<AuthCard title="Announcement emails">
			{target.announcements ? (
				<Form method="post" action={action} className="space-y-4">
					<p className="text-sm text-slate-700">
						Stop emailing announcements to <strong className="break-all">{target.email}</strong>? They stay readable under Messages on the
						site, and emails about your account (confirmation, password reset, receipts) still come.
					</p>
					<input type="hidden" name="intent" value="unsubscribe" />
					<Button type="submit" className="w-full">
						Unsubscribe
					</Button>
				</Form>
			) : (
				<Form method="post" action={action} className="space-y-4">
					<p className="text-sm text-slate-700">
						Announcements are not emailed to <strong className="break-all">{target.email}</strong>. You can still read them under Messages
						on the site.
					</p>
					<input type="hidden" name="intent" value="resubscribe" />
					<Button type="submit" variant="outline" className="w-full">
						Email me announcements again
					</Button>
				</Form>
			)}
			<p className="text-sm text-slate-600">
				All your email choices are under <a href={href('/dashboard/settings')}>Settings</a> once you log in.
			</p>
		</AuthCard>
	)
}

export const meta: Route.MetaFunction = () => [...pageTitle('Announcement emails'), { name: 'robots', content: 'noindex' }]
