// SPDX-License-Identifier: MIT
/*
 * A main() for the fuzz targets without libFuzzer: runs each file named
 * (or each file in each directory named) through LLVMFuzzerTestOneInput()
 * once.  `make check` builds every target with it and replays the seed
 * corpora, so a crash a fuzzer once found stays fixed under plain gcc
 * and under ASan/UBSan, on machines without clang.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t len = 0, cap = 0, n;
	uint8_t buf[65536];

	if (!f) {
		perror(path);
		return 1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (len + n > cap) {
			cap = (len + n) * 2;
			data = realloc(data, cap);
			if (!data) {
				fclose(f);
				return 1;
			}
		}
		memcpy(data + len, buf, n);
		len += n;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data ? data : buf, len);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0, nr = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;

		if (stat(argv[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
			failed |= run_file(argv[i]);
			nr++;
			continue;
		}
		if (!(d = opendir(argv[i]))) {
			perror(argv[i]);
			return 1;
		}
		while ((de = readdir(d))) {
			char path[4096];

			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			failed |= run_file(path);
			nr++;
		}
		closedir(d);
	}
	printf("%d inputs\n", nr);
	return failed;
}
