import { S3FileStorage, type S3StorageOptions } from '#app/services/storage/s3.server.ts'
import type { TestS3Server } from './s3-server.ts'

/** The app's S3 adapter pointed at the S3-protocol stand-in (s3-server.ts); any option can be given. */
export function s3StorageOn(s3: TestS3Server, options: Partial<S3StorageOptions> = {}) {
	return new S3FileStorage({
		bucket: s3.bucket,
		endpoint: s3.endpoint,
		region: 'us-east-1',
		accessKeyId: s3.accessKeyId,
		secretAccessKey: s3.secretAccessKey,
		forcePathStyle: true,
		...options,
	})
}
