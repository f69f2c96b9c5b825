import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useState } from 'react'
import { data, Form, href, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { z } from 'zod'
import { YourDataCard } from '#app/components/account/your-data-card.tsx'
import { ConformPasswordField, NewPasswordFields } from '#app/components/password-field.tsx'
import { CalendarFeedCard, TimeZoneCard } from '#app/components/sessions/calendar-settings.tsx'
import { StudentPaymentsCard } from '#app/components/student-payments-card.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { Field, SwitchField } from '#app/components/ui/field.tsx'
import { getEmailPreferences, setEmailPreferences } from '#app/models/accounts/email-preferences.server.ts'
import { checkPassword, setPassword, updateProfileName } from '#app/models/accounts/users.server.ts'
import { studentPayments } from '#app/models/payments/student-payments.server.ts'
import { getCalendarToken, resetCalendarToken, setTimeZone } from '#app/models/sessions/calendar-feed.server.ts'
import { isTimeZone, timeZoneNames } from '#app/models/sessions/live-sessions.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'
import { confirmationMatches, currentPasswordSchema, NameSchema, newPasswordSchema } from '#app/utils/user-validation.ts'
import type { Route } from './+types/settings'

const ProfileSchema = z.object({
	intent: z.literal('update-profile'),
	name: NameSchema,
})

const PasswordSchema = z
	.object({
		intent: z.literal('change-password'),
		currentPassword: currentPasswordSchema('Current password is required'),
		newPassword: newPasswordSchema({ tooShort: 'Password must be at least 8 characters long.', tooLong: 'Password is too long.' }),
		confirmPassword: z.string({ error: 'New password and confirmation do not match.' }),
	})
	.refine(...confirmationMatches('New password and confirmation do not match.', 'newPassword'))

/** Checkboxes: a switched-off one is absent from the form. */
const EmailPreferencesSchema = z.object({
	intent: z.literal('email-preferences'),
	emailAnnouncements: z.boolean().optional(),
	emailReminders: z.boolean().optional(),
})

/** An empty choice goes back to each course's own zone. */
const TimeZoneSchema = z.object({
	intent: z.literal('time-zone'),
	timeZone: z
		.string()
		.trim()
		.optional()
		.refine((value) => !value || isTimeZone(value), 'Choose a time zone from the list'),
})

const ResetCalendarSchema = z.object({
	intent: z.literal('reset-calendar'),
	confirm: z.literal('on', { error: 'Tick the box to confirm: the current address stops working' }),
})

const SettingsSchema = z.discriminatedUnion('intent', [
	ProfileSchema,
	PasswordSchema,
	EmailPreferencesSchema,
	TimeZoneSchema,
	ResetCalendarSchema,
])

export async function loader({ request }: Route.LoaderArgs) {
	const user = await requireUser(request)
	const db = getDb()
	const [emailPreferences, calendarToken, payments] = await Promise.all([
		getEmailPreferences(db, user.id),
		getCalendarToken(db, user.id),
		studentPayments(db, user.id),
	])
	return {
		payments,
		name: user.name,
		email: user.email,
		emailPreferences,
		timeZone: user.timeZone,
		timeZones: timeZoneNames(),
		feedUrl: `${getEnv().APP_URL}${href('/calendar/:feed', { feed: `${calendarToken}.ics` })}`,
	}
}

export async function action(args: Route.ActionArgs) {
	const { request } = args
	const user = await requireUser(request)
	const formData = await readFormData(request)
	const submission = parseWithZod(formData, { schema: SettingsSchema })
	const intent = formData.get('intent')
	const hideFields = ['currentPassword', 'newPassword', 'confirmPassword']
	const failureToast = () =>
		actionToastHeaders(args, { type: 'error', title: intent === 'change-password' ? 'Password Change Failed' : 'Update Failed' })
	const db = getDb()
	if (submission.status !== 'success') {
		return data({ intent, result: submission.reply({ hideFields }) }, { status: 400, headers: await failureToast() })
	}
	if (submission.value.intent === 'update-profile') {
		await updateProfileName(db, user.id, submission.value.name)
		return redirectWithToast(href('/dashboard/settings'), { type: 'success', title: 'Profile updated successfully' })
	}
	if (submission.value.intent === 'email-preferences') {
		const { emailAnnouncements = false, emailReminders = false } = submission.value
		await setEmailPreferences(db, user.id, { announcements: emailAnnouncements, reminders: emailReminders })
		return redirectWithToast(href('/dashboard/settings'), { type: 'success', title: 'Email settings saved' })
	}
	if (submission.value.intent === 'time-zone') {
		await setTimeZone(db, user.id, submission.value.timeZone || null)
		return redirectWithToast(href('/dashboard/settings'), { type: 'success', title: 'Time zone saved' })
	}
	if (submission.value.intent === 'reset-calendar') {
		await resetCalendarToken(db, user.id)
		return redirectWithToast(href('/dashboard/settings'), {
			type: 'success',
			title: 'New calendar address made',
			description: 'The old address no longer works: subscribe again with the new one.',
		})
	}
	if (!(await checkPassword(db, user.id, submission.value.currentPassword))) {
		return data(
			{ intent, result: submission.reply({ fieldErrors: { currentPassword: ['Current password is incorrect'] }, hideFields }) },
			{ status: 400, headers: await failureToast() },
		)
	}
	// Every other session of this account ends; this browser stays signed in.
	await setPassword(db, user.id, submission.value.newPassword, user.sessionId)
	return redirectWithToast(href('/dashboard/settings'), {
		type: 'success',
		title: 'Password changed successfully',
		description: 'You have been signed out everywhere else.',
	})
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	const hydrated = useHydrated()
	const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null
	const [profileForm, profileFields] = useForm({
		id: 'profile',
		lastResult: actionData?.intent === 'update-profile' ? actionData.result : undefined,
		constraint: getZodConstraint(ProfileSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: ProfileSchema }),
		defaultValue: { name: loaderData.name },
		shouldRevalidate: 'onInput',
	})
	const [passwordForm, passwordFields] = useForm({
		id: 'password',
		lastResult: actionData?.intent === 'change-password' ? actionData.result : undefined,
		constraint: getZodConstraint(PasswordSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: PasswordSchema }),
		shouldRevalidate: 'onInput',
	})
	const [passwords, setPasswords] = useState({ currentPassword: '', newPassword: '', confirmPassword: '' })
	const passwordsFilled = Object.values(passwords).every((value) => value.length > 0)
	const profileFailed = actionData?.intent === 'update-profile'
	const passwordFailed = actionData?.intent === 'change-password'

	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Settings</h1>
			<Card>
				<CardHeader>
					<CardTitle>Profile Information</CardTitle>
					<CardDescription>Update the name other students and your instructor see.</CardDescription>
				</CardHeader>
				<CardContent>
					{profileFailed ? (
						<Alert tone="error" title="Update Failed" className="mb-4">
							Please correct the highlighted field.
						</Alert>
					) : null}
					<Form method="post" {...getFormProps(profileForm)} className="max-w-md space-y-4">
						<input type="hidden" name="intent" value="update-profile" />
						<Field
							label="Display Name"
							inputProps={{ ...getInputProps(profileFields.name, { type: 'text' }), autoComplete: 'name' }}
							errors={profileFields.name.errors}
						/>
						<Field
							label="Email"
							inputProps={{ type: 'email', value: loaderData.email, readOnly: true, name: undefined }}
							help="Email cannot be changed"
						/>
						<Button type="submit" disabled={busyIntent === 'update-profile'}>
							{busyIntent === 'update-profile' ? 'Saving...' : 'Save Changes'}
						</Button>
					</Form>
				</CardContent>
			</Card>
			<Card>
				<CardHeader>
					<CardTitle>Email Notifications</CardTitle>
					<CardDescription>Emails about your account (confirmation, password reset, enrollment receipts) always reach you.</CardDescription>
				</CardHeader>
				<CardContent>
					<Form method="post" className="max-w-md space-y-4" aria-label="Email notifications">
						<input type="hidden" name="intent" value="email-preferences" />
						<SwitchField
							label="Announcement emails"
							help="A copy of each announcement for your courses, and their news: a new assignment, a new recording, your grades."
							inputProps={{ name: 'emailAnnouncements', defaultChecked: loaderData.emailPreferences.announcements }}
						/>
						<SwitchField
							label="Live-session reminders"
							help="An email before each live session of your courses, with the join link."
							inputProps={{ name: 'emailReminders', defaultChecked: loaderData.emailPreferences.reminders }}
						/>
						<Button type="submit" disabled={busyIntent === 'email-preferences'}>
							{busyIntent === 'email-preferences' ? 'Saving...' : 'Save Email Settings'}
						</Button>
					</Form>
				</CardContent>
			</Card>
			<TimeZoneCard
				saved={loaderData.timeZone}
				zones={loaderData.timeZones}
				busy={busyIntent === 'time-zone'}
				error={actionData?.intent === 'time-zone' ? actionData.result.error?.timeZone?.[0] : undefined}
			/>
			<CalendarFeedCard
				feedUrl={loaderData.feedUrl}
				busy={busyIntent === 'reset-calendar'}
				error={actionData?.intent === 'reset-calendar' ? actionData.result.error?.confirm?.[0] : undefined}
			/>
			<Card>
				<CardHeader>
					<CardTitle>Change Password</CardTitle>
					<CardDescription>Changing your password signs you out on every other device.</CardDescription>
				</CardHeader>
				<CardContent>
					{passwordFailed ? (
						<Alert tone="error" title="Password Change Failed" className="mb-4">
							{passwordForm.errors?.[0] ?? 'Please correct the highlighted fields.'}
						</Alert>
					) : null}
					<Form
						method="post"
						{...getFormProps(passwordForm)}
						className="max-w-md space-y-4"
						onChange={(event) => {
							const form = event.currentTarget
							setPasswords({
								currentPassword: (form.elements.namedItem('currentPassword') as HTMLInputElement).value,
								newPassword: (form.elements.namedItem('newPassword') as HTMLInputElement).value,
								confirmPassword: (form.elements.namedItem('confirmPassword') as HTMLInputElement).value,
							})
						}}
					>
						<input type="hidden" name="intent" value="change-password" />
						<ConformPasswordField label="Current Password" field={passwordFields.currentPassword} autoComplete="current-password" />
						<NewPasswordFields
							password={passwordFields.newPassword}
							confirmPassword={passwordFields.confirmPassword}
							labels={['New Password', 'Confirm New Password']}
						/>
						<Button type="submit" disabled={busyIntent === 'change-password' || (hydrated && !passwordsFilled)}>
							{busyIntent === 'change-password' ? 'Updating...' : 'Update Password'}
						</Button>
					</Form>
				</CardContent>
			</Card>
			<StudentPaymentsCard payments={loaderData.payments} />
			<YourDataCard />
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Settings')
