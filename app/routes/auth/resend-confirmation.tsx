import { data, Form, href, redirect } from 'react-router'
import { z } from 'zod'
import { AuthCard } from '#app/components/auth/auth-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { sendConfirmationEmail } from '#app/models/accounts/account-emails.server.ts'
import { findUserByEmail, normalizeEmail } from '#app/models/accounts/users.server.ts'
import { getUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { authPageMeta } from './+shared/meta.ts'
import type { Route } from './+types/resend-confirmation'

const ResendSchema = z.object({ email: z.email().max(254).optional() })

export async function loader({ request }: Route.LoaderArgs) {
	const user = await getUser(request)
	if (user?.emailConfirmed) throw redirect(href('/dashboard'))
	return { signedInEmail: user?.email ?? null }
}

/**
 * Sends a new confirmation link: to the signed-in user, or to the address
 * given (answering the same whether or not it has an account).
 */
export async function action({ request }: Route.ActionArgs) {
	const parsed = ResendSchema.safeParse(Object.fromEntries(await readFormData(request)))
	const sessionUser = await getUser(request)
	const email = sessionUser?.email ?? (parsed.success ? parsed.data.email : undefined)
	if (!email) return data({ error: 'Please enter a valid email address' }, { status: 400 })
	const db = getDb()
	const address = normalizeEmail(email)
	const limit = await consumeRateLimit('accountMail', `confirm:${address}`)
	if (!limit.allowed) {
		return data(
			{ error: 'Too many confirmation emails requested. Please wait an hour before trying again.' },
			{ status: 429, headers: { 'Retry-After': String(limit.retryAfterSeconds) } },
		)
	}
	const user = await findUserByEmail(db, address)
	if (user && !user.email_confirmed_at) {
		await db.transaction().execute((trx) => sendConfirmationEmail(trx, { id: user.id, email: user.email, name: user.name ?? '' }))
	}
	if (sessionUser) {
		return redirectWithToast(href('/dashboard'), {
			type: 'success',
			title: 'Confirmation email sent',
			description: `We sent a new link to ${sessionUser.email}.`,
		})
	}
	return redirect('/login?notice=confirmation-sent')
}

export default function ResendConfirmationPage({ loaderData, actionData }: Route.ComponentProps) {
	return (
		<AuthCard title="Resend confirmation email" subtitle="We'll send a new confirmation link to your email address.">
			{actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
			<Form method="post" className="space-y-4">
				{loaderData.signedInEmail ? (
					<p className="text-sm text-slate-700">
						The link goes to <strong>{loaderData.signedInEmail}</strong>.
					</p>
				) : (
					<Field label="Email" inputProps={{ name: 'email', type: 'email', required: true, autoComplete: 'email' }} />
				)}
				<Button type="submit" className="w-full">
					Resend confirmation email
				</Button>
			</Form>
		</AuthCard>
	)
}

export const meta: Route.MetaFunction = () => authPageMeta('Resend confirmation', 'Request a new email confirmation link.')
