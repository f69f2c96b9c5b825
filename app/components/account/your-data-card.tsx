import { Form, href } from 'react-router'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'

/**
 * Settings' "Your Data" section (docs/decisions/067): the download is a plain form posted by the
 * browser itself (`reloadDocument`), so the ZIP downloads with or without JavaScript and the page
 * stays where it is; deleting the account has a page of its own, the confirmation step.
 */
export function YourDataCard() {
	return (
		<Card>
			<CardHeader>
				<CardTitle>Your Data</CardTitle>
				<CardDescription>
					Download everything the school keeps about you as one ZIP file, or delete your account. The Privacy Policy says what each does.
				</CardDescription>
			</CardHeader>
			<CardContent className="flex flex-wrap items-center gap-3">
				<Form method="post" action={href('/dashboard/settings/my-data')} reloadDocument aria-label="Download my data">
					<input type="hidden" name="intent" value="download" />
					<Button type="submit" variant="outline">
						Download my data
					</Button>
				</Form>
				<ButtonLink to={href('/dashboard/settings/delete-account')} variant="destructive">
					Delete my account
				</ButtonLink>
			</CardContent>
		</Card>
	)
}
