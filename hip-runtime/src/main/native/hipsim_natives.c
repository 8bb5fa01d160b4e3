/* Native methods of dev.hipsim.hip.jni.NativeHost: the Java runtime's raw access to the host process (its memory and
 * its C stdio streams). Registered with RegisterNatives when the JVM starts (hipsim_jvm.c). */
#define _GNU_SOURCE
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ADDR(a) ((void*)(intptr_t)(a))

static jobject JNICALL host_wrap(JNIEnv* env, jclass cls, jlong address, jlong length) {
  (void)cls;
  return (*env)->NewDirectByteBuffer(env, ADDR(address), length);
}

static void JNICALL host_copy(JNIEnv* env, jclass cls, jlong dst, jlong src, jlong length) {
  (void)env, (void)cls;
  memmove(ADDR(dst), ADDR(src), (size_t)length);
}

static void JNICALL host_read(JNIEnv* env, jclass cls, jlong address, jbyteArray dst, jint offset, jint length) {
  (void)cls;
  (*env)->SetByteArrayRegion(env, dst, offset, length, (const jbyte*)ADDR(address));
}

static void JNICALL host_write(JNIEnv* env, jclass cls, jlong address, jbyteArray src, jint offset, jint length) {
  (void)cls;
  (*env)->GetByteArrayRegion(env, src, offset, length, (jbyte*)ADDR(address));
}

static void JNICALL host_fill(JNIEnv* env, jclass cls, jlong address, jint value, jlong length) {
  (void)env, (void)cls;
  memset(ADDR(address), value, (size_t)length);
}

/* Scalars by value: cheaper than a direct buffer for the many single words the runtime reads and writes. */
static jint JNICALL host_get_int(JNIEnv* env, jclass cls, jlong address) {
  (void)env, (void)cls;
  int32_t v;
  memcpy(&v, ADDR(address), sizeof v);
  return v;
}

static void JNICALL host_put_int(JNIEnv* env, jclass cls, jlong address, jint value) {
  (void)env, (void)cls;
  int32_t v = value;
  memcpy(ADDR(address), &v, sizeof v);
}

static jlong JNICALL host_get_long(JNIEnv* env, jclass cls, jlong address) {
  (void)env, (void)cls;
  int64_t v;
  memcpy(&v, ADDR(address), sizeof v);
  return v;
}

static void JNICALL host_put_long(JNIEnv* env, jclass cls, jlong address, jlong value) {
  (void)env, (void)cls;
  int64_t v = value;
  memcpy(ADDR(address), &v, sizeof v);
}

static jlong JNICALL host_string_length(JNIEnv* env, jclass cls, jlong address, jlong max) {
  (void)env, (void)cls;
  return (jlong)strnlen((const char*)ADDR(address), (size_t)max);
}

static jlong JNICALL host_allocate(JNIEnv* env, jclass cls, jlong size, jlong alignment) {
  (void)env, (void)cls;
  size_t align = alignment < (jlong)sizeof(void*) ? sizeof(void*) : (size_t)alignment;
  void* p = NULL;
  if (posix_memalign(&p, align, size > 0 ? (size_t)size : 1) != 0) return 0;
  return (jlong)(intptr_t)p;
}

static void JNICALL host_free(JNIEnv* env, jclass cls, jlong address) {
  (void)env, (void)cls;
  free(ADDR(address));
}

static FILE* stream_of(jint stream) {
  return stream == 2 ? stderr : stdout;
}

/* Copies through a small buffer rather than pinning the array: fwrite may block on a full pipe, and a pinned array
 * would hold up the garbage collector meanwhile. */
static void JNICALL host_stdio_write(JNIEnv* env, jclass cls, jint stream, jbyteArray data, jint offset, jint length) {
  (void)cls;
  FILE* f = stream_of(stream);
  char buf[8192];
  while (length > 0) {
    jint n = length < (jint)sizeof buf ? length : (jint)sizeof buf;
    (*env)->GetByteArrayRegion(env, data, offset, n, (jbyte*)buf);
    if ((*env)->ExceptionCheck(env)) return;
    if (fwrite(buf, 1, (size_t)n, f) != (size_t)n) return;
    offset += n;
    length -= n;
  }
}

static void JNICALL host_stdio_flush(JNIEnv* env, jclass cls, jint stream) {
  (void)env, (void)cls;
  fflush(stream_of(stream));
}

static jboolean JNICALL host_is_terminal(JNIEnv* env, jclass cls, jint fd) {
  (void)env, (void)cls;
  return isatty(fd) ? JNI_TRUE : JNI_FALSE;
}

/* ROCr's reaction to a fatal device error: flush what the program printed, then abort() (SIGABRT, status 134). */
static void JNICALL host_abort(JNIEnv* env, jclass cls) {
  (void)env, (void)cls;
  fflush(stdout);
  fflush(stderr);
  abort();
}

int hipsim_register_natives(JNIEnv* env, jclass host) {
  static const JNINativeMethod methods[] = {
      {"wrap", "(JJ)Ljava/nio/ByteBuffer;", (void*)host_wrap},
      {"copy", "(JJJ)V", (void*)host_copy},
      {"read", "(J[BII)V", (void*)host_read},
      {"write", "(J[BII)V", (void*)host_write},
      {"fill", "(JIJ)V", (void*)host_fill},
      {"getInt", "(J)I", (void*)host_get_int},
      {"putInt", "(JI)V", (void*)host_put_int},
      {"getLong", "(J)J", (void*)host_get_long},
      {"putLong", "(JJ)V", (void*)host_put_long},
      {"stringLength", "(JJ)J", (void*)host_string_length},
      {"allocate", "(JJ)J", (void*)host_allocate},
      {"free", "(J)V", (void*)host_free},
      {"stdioWrite", "(I[BII)V", (void*)host_stdio_write},
      {"stdioFlush", "(I)V", (void*)host_stdio_flush},
      {"isTerminal", "(I)Z", (void*)host_is_terminal},
      {"abortProcess", "()V", (void*)host_abort},
  };
  return (*env)->RegisterNatives(env, host, methods, sizeof methods / sizeof methods[0]);
}
