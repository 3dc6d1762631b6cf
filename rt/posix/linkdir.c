/* linkdir.c: the directory the program was linked into, which pathcc's link records in an ELF note ("pathprof", type 1) of the executable; the default profile goes there (posix.c). */
#define _GNU_SOURCE 1
#include "posix.h"
#include <string.h>
#if defined(__ELF__) && (defined(__linux__) || defined(__FreeBSD__))
#include <link.h>
#define PP_HAVE_PHDR 1
#endif

#ifdef PP_HAVE_PHDR
/* The note's name, with its NUL, and type (pathcc's translator/pathcc/masq.c writes it). */
static const char note_name[] = "pathprof";
enum { NOTE_LINK_DIR = 1 };

/* The link directory in the note segments of one loaded object, or 0. */
static const char *note_in(const struct dl_phdr_info *info)
{
  int i;
  for (i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr), *end = p + ph->p_memsz;
    while (ph->p_type == PT_NOTE && p + 12 <= end) {
      const ElfW(Word) *h = (const ElfW(Word) *)(const void *)p;
      const char *name = p + 12, *desc = name + ((h[0] + 3) & ~3u);
      if (desc + h[1] > end)
        break;
      if (h[0] == sizeof note_name && h[2] == NOTE_LINK_DIR && !memcmp(name, note_name, sizeof note_name) &&
          h[1] > 0 && desc[h[1] - 1] == 0)
        return desc;
      p = desc + ((h[1] + 3) & ~3u);
    }
  }
  return 0;
}

/* dl_iterate_phdr's callback: the first object is the program itself; look no further. */
static int first_object(struct dl_phdr_info *info, size_t size, void *data)
{
  (void)size;
  *(const char **)data = note_in(info);
  return 1;
}
#endif

/* The program's link directory from its note, or 0 (a program pathcc did not link, a shared
   object's own link: every module of a process writes where the program's build is). */
const char *__pathprof_link_dir(void)
{
  const char *dir = 0;
#ifdef PP_HAVE_PHDR
  dl_iterate_phdr(first_object, &dir);
#endif
  return dir;
}
