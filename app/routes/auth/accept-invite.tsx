import { getFormProps } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, useNavigation } from 'react-router'
import { z } from 'zod'
import { AuthCard } from '#app/components/auth/auth-card.tsx'
import { NewPasswordFields } from '#app/components/password-field.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { checkToken, type TokenCheck } from '#app/models/accounts/auth-tokens.server.ts'
import { acceptInvitation } from '#app/models/accounts/invitations.server.ts'
import { startSession } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import { confirmationMatches, newPasswordSchema } from '#app/utils/user-validation.ts'
import { useAuthForm } from './+shared/form.ts'
import { authPageMeta } from './+shared/meta.ts'
import type { Route } from './+types/accept-invite'

const AcceptInviteSchema = z
	.object({
		token: z.string().max(200),
		password: newPasswordSchema(),
		confirmPassword: z.string({ error: "Passwords don't match" }),
	})
	.refine(...confirmationMatches("Passwords don't match"))

const USED_OR_UNKNOWN = 'This invitation link is invalid or has already been used. Ask the school for a new invitation.'
const TOKEN_ERRORS: Record<Exclude<TokenCheck['status'], 'valid'>, string> = {
	missing: USED_OR_UNKNOWN,
	invalid: USED_OR_UNKNOWN,
	used: USED_OR_UNKNOWN,
	expired: 'This invitation link has expired. Ask the school for a new invitation.',
}
const HIDDEN = { hideFields: ['password', 'confirmPassword'] }

/** Opening the link only shows the form: mail scanners that fetch links spend nothing. */
export async function loader({ request }: Route.LoaderArgs) {
	const token = new URL(request.url).searchParams.get('token')
	const check = await checkToken(getDb(), token, 'invite')
	if (check.status !== 'valid') return { token: null, error: TOKEN_ERRORS[check.status] }
	return { token, error: null }
}

export async function action({ request }: Route.ActionArgs) {
	const submission = parseWithZod(await readFormData(request), { schema: AcceptInviteSchema })
	if (submission.status !== 'success') return data({ result: submission.reply(HIDDEN) }, { status: 400 })
	const refuse = (message: string) => data({ result: submission.reply({ formErrors: [message], ...HIDDEN }) }, { status: 400 })
	const db = getDb()
	const check = await checkToken(db, submission.value.token, 'invite')
	if (check.status !== 'valid') return refuse(TOKEN_ERRORS[check.status])
	if (!(await acceptInvitation(db, check.tokenId, check.userId, submission.value.password))) return refuse(TOKEN_ERRORS.used)
	// The link proved the mailbox and the password is theirs: they are signed in at once.
	return redirectWithToast(
		href('/dashboard'),
		{ type: 'success', title: 'Welcome!', description: 'Your password is set and your account is ready.' },
		{ headers: { 'Set-Cookie': await startSession(request, check.userId) } },
	)
}

export default function AcceptInvitePage({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting'
	const [form, fields] = useAuthForm(AcceptInviteSchema, actionData?.result)

	if (loaderData.error) {
		return (
			<AuthCard title="Set your password">
				<Alert tone="error">{loaderData.error}</Alert>
				<ButtonLink to="/login" className="w-full">
					Go to login
				</ButtonLink>
			</AuthCard>
		)
	}

	return (
		<AuthCard title="Set your password" subtitle="You were invited. Choose a password of at least 8 characters to finish your account.">
			{form.errors?.length ? <Alert tone="error">{form.errors[0]}</Alert> : null}
			<Form method="post" {...getFormProps(form)} className="space-y-4">
				<input type="hidden" name="token" value={loaderData.token ?? ''} />
				<NewPasswordFields password={fields.password} confirmPassword={fields.confirmPassword} />
				<Button type="submit" className="w-full" disabled={busy}>
					{busy ? 'Saving...' : 'Set Password and Sign In'}
				</Button>
			</Form>
		</AuthCard>
	)
}

export const meta: Route.MetaFunction = () => authPageMeta('Set your password', 'Accept your invitation and choose a password.')
