// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../model/util.h"
#include "outfile.h"

/* "PATH: reason" into ERR. */
static long fail(char *err, size_t err_size, const char *path, int errnum)
{
	snprintf(err, err_size, "%s: %s", path, strerror(errnum));
	return -1;
}

/*
 * The file a write to PATH lands in, as the shell's '>' would have it:
 * PATH itself, or the end of the chain of symbolic links it starts (which
 * need not exist yet).  We replace files by renaming over them, and a
 * rename over a link would replace the link, not write to its target.
 * Returns a heap string (caller frees), or NULL with ERR set.
 */
static char *write_target(const char *path, char *err, size_t err_size)
{
	char *cur = xstrdup(path);

	for (int hops = 0; hops < 40; hops++) {
		char link[4096], *next;
		const char *slash;
		struct stat lst, dir;
		ssize_t n;

		if (lstat(cur, &lst) != 0 || !S_ISLNK(lst.st_mode))
			return cur;
		/* The kernel's protected_symlinks rule, which following a
		 * link by hand would bypass: in a sticky world-writable
		 * directory (/tmp), a link owned by neither us nor the
		 * directory's owner is not followed. */
		slash = strrchr(cur, '/');
		{
			char *d = slash ? xstrndup(cur, slash == cur ? 1 : (size_t)(slash - cur))
					: xstrdup(".");
			int rc = stat(d, &dir);

			free(d);
			if (rc == 0 && (dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH) &&
			    lst.st_uid != geteuid() && lst.st_uid != dir.st_uid) {
				snprintf(err, err_size, "%s: a symbolic link someone else owns, in a "
					 "shared directory; not followed", path);
				free(cur);
				return NULL;
			}
		}
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) {
			fail(err, err_size, path, errno);
			free(cur);
			return NULL;
		}
		link[n] = '\0';
		if (link[0] == '/' || !slash) {
			next = xstrdup(link);
		} else {
			/* Relative to the link's own directory. */
			size_t dlen = (size_t)(slash - cur) + 1;

			next = xmalloc(dlen + (size_t)n + 1);
			memcpy(next, cur, dlen);
			memcpy(next + dlen, link, (size_t)n + 1);
		}
		free(cur);
		cur = next;
	}
	fail(err, err_size, path, ELOOP);
	free(cur);
	return NULL;
}

/*
 * Write the output over the file TARGET, in place: for a user who may
 * write the file but not its directory, where no temporary file can be
 * made beside it.  PATH (as given) is for messages.
 *
 * What "never half-written" means here: the whole output is made in
 * memory before the file is touched, so failing to make it changes
 * nothing; the space it needs is reserved before the first byte is
 * overwritten, so a full disk fails before anything changes; a write
 * error after that puts the old contents back (when the file could be
 * read as well as written).  What it cannot promise, unlike the rename:
 * a crash or power cut in the middle of the write leaves a mix.
 */
static long write_in_place(const char *target, const char *path, outfile_fill *fill, void *ctx,
			   char *err, size_t err_size)
{
	char *data = NULL, *old = NULL;
	size_t len = 0, old_len = 0;
	bool has_old = false;		/* OLD holds all the file held */
	struct stat st;
	FILE *mem = open_memstream(&data, &len);
	long rows = mem ? fill(mem, ctx) : -1;
	int fd, e = 0;

	if (!mem || fclose(mem) != 0 || rows < 0) {
		free(data);
		return fail(err, err_size, path, ENOMEM);
	}
	fd = open(target, O_RDWR);
	if (fd < 0 && errno == EACCES)
		fd = open(target, O_WRONLY);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		e = fd < 0 ? errno : EACCES;
		goto out;
	}
	/* The old contents, to put back if the write fails half-way (a
	 * file opened write-only cannot be read: then there is no way
	 * back). */
	old = xmalloc(st.st_size > 0 ? (size_t)st.st_size : 1);
	while (old_len < (size_t)st.st_size) {
		ssize_t n = pread(fd, old + old_len, (size_t)st.st_size - old_len, (off_t)old_len);

		if (n <= 0)
			break;
		old_len += (size_t)n;
	}
	has_old = old_len == (size_t)st.st_size;
	if (len > (size_t)st.st_size && (e = posix_fallocate(fd, 0, (off_t)len)) != 0 &&
	    e != EOPNOTSUPP && e != EINVAL) {
		/* Nothing written; the size as it was, should it have grown. */
		if (ftruncate(fd, st.st_size) != 0) {
			/* e says what went wrong first */
		}
		goto out;
	}
	e = 0;
	for (size_t done = 0; done < len;) {
		ssize_t n = pwrite(fd, data + done, len - done, (off_t)done);

		if (n <= 0) {
			e = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	if (!e && ftruncate(fd, (off_t)len) != 0)
		e = errno;
	if (e && has_old) {
		/* Put the old contents back; the space is the file's. */
		size_t done = 0;

		while (done < old_len) {
			ssize_t n = pwrite(fd, old + done, old_len - done, (off_t)done);

			if (n <= 0)
				break;
			done += (size_t)n;
		}
		if (done == old_len && ftruncate(fd, (off_t)old_len) != 0) {
			/* e says what went wrong first */
		}
	}
	if (!e && fsync(fd) != 0)
		e = errno;
out:
	if (fd >= 0 && close(fd) != 0 && !e)
		e = errno;
	free(data);
	free(old);
	return e ? fail(err, err_size, path, e) : rows;
}

/*
 * Write to the device or FIFO PATH (what stat() said it is) as the shell
 * would: opened for writing, never created, truncated or replaced.
 * Returns FILL's count; -1 with ERR set; NOT_A_DEVICE when PATH turned
 * out to be a regular file after all (made there since), which the caller
 * replaces.
 */
enum { NOT_A_DEVICE = -2 };

static long write_to_device(const char *path, outfile_fill *fill, void *ctx, char *err,
			    size_t err_size)
{
	int fd = open(path, O_WRONLY | O_NOCTTY);
	struct stat st;
	long rows;
	FILE *out;

	if (fd < 0)
		return fail(err, err_size, path, errno);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		close(fd);
		return NOT_A_DEVICE;
	}
	out = fdopen(fd, "w");
	if (!out) {
		rows = fail(err, err_size, path, errno);
		close(fd);
		return rows;
	}
	rows = fill(out, ctx);
	if (rows < 0) {
		rows = fail(err, err_size, path, errno ? errno : EIO);
		fclose(out);
		return rows;
	}
	if (fclose(out) != 0)
		return fail(err, err_size, path, errno);
	return rows;
}

/* A temporary file beside TARGET (TMP, heap, set), with the mode that
 * TARGET has or, new, an ordinary file's: its descriptor, or -1 with
 * errno set. */
static int make_temp(const char *target, char **tmp)
{
	const char *slash = strrchr(target, '/');
	size_t n = strlen(target) + 32;
	mode_t mask;
	struct stat st;
	int fd;

	/* Beside the target, so that the rename stays on one file system
	 * and is atomic. */
	*tmp = xmalloc(n);
	if (slash)
		snprintf(*tmp, n, "%.*s/.proftui-XXXXXX", (int)(slash - target), target);
	else
		snprintf(*tmp, n, ".proftui-XXXXXX");
	fd = mkstemp(*tmp);
	if (fd < 0)
		return -1;
	/* mkstemp makes 0600; an output is an ordinary file. */
	mask = umask(0);
	umask(mask);
	if (stat(target, &st) == 0)
		fchmod(fd, st.st_mode & 07777);
	else
		fchmod(fd, 0666 & ~mask);
	return fd;
}

/* Replace the file TARGET (PATH as given, for messages) by the output,
 * renamed over it once complete; in place when no temporary file can be
 * made beside it. */
static long replace_file(const char *target, const char *path, outfile_fill *fill, void *ctx,
			 char *err, size_t err_size)
{
	char *tmp;
	struct stat st;
	long rows;
	FILE *out;
	int fd = make_temp(target, &tmp);

	if (fd < 0) {
		int e = errno;

		free(tmp);
		/* A file we may write in a directory we may not: in place. */
		if (e == EACCES && stat(target, &st) == 0 && S_ISREG(st.st_mode))
			return write_in_place(target, path, fill, ctx, err, err_size);
		return fail(err, err_size, path, e);
	}
	out = fdopen(fd, "w");
	if (!out) {
		rows = fail(err, err_size, path, errno);
		close(fd);
		goto out;
	}
	rows = fill(out, ctx);
	if (rows < 0 || fflush(out) != 0 || fsync(fileno(out)) != 0) {
		rows = fail(err, err_size, path, errno ? errno : EIO);
		fclose(out);
		goto out;
	}
	if (fclose(out) != 0 || rename(tmp, target) != 0) {
		rows = fail(err, err_size, path, errno);
		goto out;
	}
	free(tmp);
	return rows;
out:
	unlink(tmp);
	free(tmp);
	return rows;
}

long outfile_write(const char *path, outfile_fill *fill, void *ctx, char *err, size_t err_size)
{
	char *target = write_target(path, err, err_size);	/* a planted link refused */
	struct stat st;
	long rows = NOT_A_DEVICE;

	if (!target)
		return -1;
	/* What is there, the links followed by the kernel (which knows
	 * where /dev/stdout leads): a device or a FIFO is written, not
	 * replaced. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		rows = write_to_device(path, fill, ctx, err, err_size);
	if (rows == NOT_A_DEVICE)
		rows = replace_file(target, path, fill, ctx, err, err_size);
	free(target);
	return rows;
}
