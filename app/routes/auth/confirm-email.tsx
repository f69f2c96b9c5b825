import { data, Form, href, redirect } from 'react-router'
import { z } from 'zod'
import { AuthCard } from '#app/components/auth/auth-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { checkToken, consumeToken } from '#app/models/accounts/auth-tokens.server.ts'
import { confirmEmail } from '#app/models/accounts/users.server.ts'
import { getUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { authPageMeta } from './+shared/meta.ts'
import type { Route } from './+types/confirm-email'

const ConfirmSchema = z.object({ token: z.string().min(1).max(200) })
const INVALID_LINK = 'This confirmation link is invalid or has already been used. Log in to request a new one.'
const EXPIRED_LINK = 'This confirmation link has expired. Log in to request a new one.'

/** Opening the link only shows a button: mail scanners that fetch links must not confirm accounts. */
export async function loader({ request }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const check = await checkToken(getDb(), token, 'confirm_email')
	if (check.status === 'valid') return { token, error: null }
	return { token: null, error: check.status === 'expired' ? EXPIRED_LINK : INVALID_LINK }
}

export async function action({ request }: Route.ActionArgs) {
	const parsed = ConfirmSchema.safeParse(Object.fromEntries(await readFormData(request)))
	if (!parsed.success) return data({ error: INVALID_LINK }, { status: 400 })
	const db = getDb()
	const check = await checkToken(db, parsed.data.token, 'confirm_email')
	if (check.status !== 'valid') return data({ error: check.status === 'expired' ? EXPIRED_LINK : INVALID_LINK }, { status: 400 })
	await db.transaction().execute(async (trx) => {
		if (await consumeToken(trx, check.tokenId)) await confirmEmail(trx, check.userId)
	})
	const user = await getUser(request)
	if (user)
		return redirectWithToast(href('/dashboard'), {
			type: 'success',
			title: 'Email confirmed',
			description: 'Thank you for confirming your email address.',
		})
	return redirect('/login?notice=email-confirmed')
}

export default function ConfirmEmailPage({ loaderData, actionData }: Route.ComponentProps) {
	const error = actionData?.error ?? loaderData.error
	return (
		<AuthCard title="Confirm your email address">
			{error ? (
				<>
					<Alert tone="error">{error}</Alert>
					<ButtonLink to="/login" className="w-full">
						Go to login
					</ButtonLink>
				</>
			) : (
				<Form method="post" className="space-y-4">
					<p className="text-sm text-slate-700">Click the button below to confirm your email address and activate your account.</p>
					<input type="hidden" name="token" value={loaderData.token ?? ''} />
					<Button type="submit" className="w-full">
						Confirm my email address
					</Button>
				</Form>
			)}
		</AuthCard>
	)
}

export const meta: Route.MetaFunction = () => authPageMeta('Confirm your email', 'Confirm the email address of your account.')
