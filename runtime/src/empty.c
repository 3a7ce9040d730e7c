/* placeholder so the runtime builds before its first source lands */
typedef int ptort_empty_tu;
