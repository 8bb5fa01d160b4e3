package dev.hipsim.hip.gpu.printf;

import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * The host C library's {@code printf}, as device printf output needs it: the device sends a format string and raw
 * 64-bit argument words (integers zero- or sign-extended, floats promoted to double, strings inline), and the host
 * formats them exactly as glibc would format the same values, conversion by conversion. Output is bytes: strings
 * from the device are bytes, not characters.
 *
 * <p>Supported: flags {@code -+ #0}, width and precision (also {@code *}), length modifiers {@code hh h l ll j z t L
 * q}, conversions {@code d i o u x X c s p f F e E g G a A n %}. Floating-point conversions round the exact binary
 * value half-to-even, as glibc does in the default rounding mode.
 */
public final class CFormat {
  /** Where a conversion's argument comes from. */
  public interface Arguments {
    /** Whether another argument is available. */
    boolean hasNext();

    /** The next argument as a 64-bit word (integers, pointers, the bits of a double). */
    long nextWord();

    /** The next argument as a string's bytes (without the terminating NUL); null for a null pointer. */
    byte[] nextString();

    /** The next argument of a floating-point conversion (varargs promote floats to double). */
    default double nextDouble() {
      return Double.longBitsToDouble(nextWord());
    }
  }

  private CFormat() {}

  /** Formats {@code format} with {@code args}; stops quietly when arguments run out, as CLR's printf service does. */
  public static byte[] format(byte[] format, Arguments args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int i = 0;
    int n = format.length;
    while (i < n) {
      byte c = format[i];
      if (c != '%') {
        out.write(c);
        i++;
        continue;
      }
      if (i + 1 < n && format[i + 1] == '%') {
        out.write('%');
        i += 2;
        continue;
      }
      Spec spec = new Spec();
      int end = spec.parse(format, i + 1);
      if (end < 0) {
        // An incomplete specifier: print it as it stands (glibc does the same).
        out.write(format, i, n - i);
        break;
      }
      if (!args.hasNext()) break;
      if (spec.widthFromArgument) {
        int w = (int) args.nextWord();
        if (w < 0) {
          spec.left = true;
          w = -w;
        }
        spec.width = w;
        if (!args.hasNext()) break;
      }
      if (spec.precisionFromArgument) {
        int p = (int) args.nextWord();
        spec.precision = p < 0 ? -1 : p;
        if (!args.hasNext()) break;
      }
      byte[] text = convert(spec, args);
      out.write(text, 0, text.length);
      i = end;
    }
    return out.toByteArray();
  }

  /** A parsed conversion specification. */
  static final class Spec {
    boolean left;
    boolean plus;
    boolean space;
    boolean alternate;
    boolean zero;
    int width;
    boolean widthFromArgument;
    int precision = -1;
    boolean precisionFromArgument;
    /** 'H' hh, 'h', 'l' (l, ll, j, z, t, q), 'L', or 0. */
    char length;
    char conversion;

    /** Parses after the '%'; returns the index after the conversion character, or -1 when there is none. */
    int parse(byte[] f, int i) {
      int n = f.length;
      for (; i < n; i++) {
        switch (f[i]) {
          case '-': left = true; continue;
          case '+': plus = true; continue;
          case ' ': space = true; continue;
          case '#': alternate = true; continue;
          case '0': zero = true; continue;
          default: break;
        }
        break;
      }
      if (i < n && f[i] == '*') {
        widthFromArgument = true;
        i++;
      } else {
        while (i < n && f[i] >= '0' && f[i] <= '9') width = saturatingDigit(width, f[i++]);
      }
      if (i < n && f[i] == '.') {
        i++;
        if (i < n && f[i] == '*') {
          precisionFromArgument = true;
          i++;
        } else {
          precision = 0;
          while (i < n && f[i] >= '0' && f[i] <= '9') precision = saturatingDigit(precision, f[i++]);
        }
      }
      while (i < n) {
        byte b = f[i];
        if (b == 'h') {
          length = length == 'h' ? 'H' : 'h';
        } else if (b == 'l' || b == 'j' || b == 'z' || b == 't' || b == 'q') {
          length = 'l';
        } else if (b == 'L') {
          length = 'L';
        } else {
          break;
        }
        i++;
      }
      if (i >= n) return -1;
      char c = (char) f[i];
      if ("diouxXcspfFeEgGaAn".indexOf(c) < 0) return -1;
      conversion = c;
      return i + 1;
    }

    private static int saturatingDigit(int v, byte digit) {
      long r = v * 10L + (digit - '0');
      return (int) Math.min(r, 1 << 20);
    }
  }

  private static byte[] convert(Spec s, Arguments args) {
    switch (s.conversion) {
      case 'd': case 'i': return ascii(integer(s, signedValue(s, args.nextWord())));
      case 'o': case 'u': case 'x': case 'X': return ascii(unsigned(s, unsignedValue(s, args.nextWord())));
      case 'c': return pad(s, new byte[] {(byte) args.nextWord()}, false);
      case 's': return string(s, args.nextString());
      case 'p': return ascii(pointer(s, args.nextWord()));
      case 'n': args.nextWord(); return new byte[0];
      default: return ascii(floating(s, args.nextDouble()));
    }
  }

  private static long signedValue(Spec s, long w) {
    switch (s.length) {
      case 'H': return (byte) w;
      case 'h': return (short) w;
      case 'l': case 'L': return w;
      default: return (int) w;
    }
  }

  private static BigInteger unsignedValue(Spec s, long w) {
    long v;
    switch (s.length) {
      case 'H': v = w & 0xff; break;
      case 'h': v = w & 0xffff; break;
      case 'l': case 'L': return new BigInteger(Long.toUnsignedString(w));
      default: v = w & 0xffff_ffffL; break;
    }
    return BigInteger.valueOf(v);
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String integer(Spec s, long v) {
    String digits = v == 0 && s.precision == 0 ? "" : (v < 0 ? Long.toString(v).substring(1) : Long.toString(v));
    String sign = v < 0 ? "-" : s.plus ? "+" : s.space ? " " : "";
    return number(s, sign, "", digits);
  }

  private static String unsigned(Spec s, BigInteger v) {
    boolean zero = v.signum() == 0;
    String digits;
    String prefix = "";
    switch (s.conversion) {
      case 'o':
        digits = zero && s.precision == 0 ? "" : v.toString(8);
        if (s.alternate && !digits.startsWith("0")) digits = "0" + digits;
        break;
      case 'x': case 'X':
        digits = zero && s.precision == 0 ? "" : v.toString(16);
        if (s.alternate && !zero) prefix = "0x";
        if (s.conversion == 'X') {
          digits = digits.toUpperCase(java.util.Locale.ROOT);
          prefix = prefix.toUpperCase(java.util.Locale.ROOT);
        }
        break;
      default:
        digits = zero && s.precision == 0 ? "" : v.toString();
    }
    return number(s, "", prefix, digits);
  }

  /** Sign, prefix and digits with precision (minimum digits), zero padding and width, as for d/i/o/u/x/X. */
  private static String number(Spec s, String sign, String prefix, String digits) {
    StringBuilder body = new StringBuilder();
    if (s.precision > digits.length()) body.append("0".repeat(s.precision - digits.length()));
    body.append(digits);
    int len = sign.length() + prefix.length() + body.length();
    if (!s.left && s.zero && s.precision < 0 && s.width > len) {
      body.insert(0, "0".repeat(s.width - len));
    }
    return justify(s, sign + prefix + body);
  }

  private static String justify(Spec s, String text) {
    if (text.length() >= s.width) return text;
    String fill = " ".repeat(s.width - text.length());
    return s.left ? text + fill : fill + text;
  }

  private static byte[] pad(Spec s, byte[] text, boolean unused) {
    if (text.length >= s.width) return text;
    byte[] out = new byte[s.width];
    java.util.Arrays.fill(out, (byte) ' ');
    System.arraycopy(text, 0, out, s.left ? 0 : s.width - text.length, text.length);
    return out;
  }

  private static byte[] string(Spec s, byte[] value) {
    byte[] text = value == null ? ascii(s.precision >= 0 && s.precision < 6 ? "" : "(null)") : value;
    if (s.precision >= 0 && text.length > s.precision) text = java.util.Arrays.copyOf(text, s.precision);
    return pad(s, text, false);
  }

  private static String pointer(Spec s, long v) {
    if (v == 0) return justify(s, "(nil)");
    String sign = s.plus ? "+" : s.space ? " " : "";
    return number(s, sign, "0x", Long.toHexString(v));
  }

  // ---------------------------------------------------------------- floating point

  private static String floating(Spec s, double v) {
    char c = s.conversion;
    boolean upper = Character.isUpperCase(c);
    boolean negative = (Double.doubleToRawLongBits(v) < 0);
    String sign = negative ? "-" : s.plus ? "+" : s.space ? " " : "";
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      String t = Double.isNaN(v) ? "nan" : "inf";
      return justify(s, sign + (upper ? t.toUpperCase(java.util.Locale.ROOT) : t));
    }
    double a = Math.abs(v);
    String body;
    switch (Character.toLowerCase(c)) {
      case 'f': body = fixed(a, s.precision < 0 ? 6 : s.precision, s.alternate); break;
      case 'e': body = exponential(a, s.precision < 0 ? 6 : s.precision, s.alternate); break;
      case 'g': body = general(a, s.precision < 0 ? 6 : Math.max(1, s.precision), s.alternate); break;
      default: body = hex(a, s.precision, s.alternate); break;
    }
    if (upper) body = body.toUpperCase(java.util.Locale.ROOT);
    String prefix = "";
    if (Character.toLowerCase(c) == 'a') {
      prefix = upper ? "0X" : "0x";
    }
    int len = sign.length() + prefix.length() + body.length();
    if (!s.left && s.zero && s.width > len) body = "0".repeat(s.width - len) + body;
    return justify(s, sign + prefix + body);
  }

  private static String fixed(double a, int precision, boolean alternate) {
    BigDecimal d = new BigDecimal(a).setScale(precision, RoundingMode.HALF_EVEN);
    String t = d.toPlainString();
    if (precision == 0 && alternate) t += ".";
    return t;
  }

  /** Digits of {@code a} rounded to {@code significant} digits, and the decimal exponent of the first one. */
  private static Object[] decimalDigits(double a, int significant) {
    if (a == 0) return new Object[] {"0".repeat(significant), 0};
    BigDecimal r = new BigDecimal(a).round(new MathContext(significant, RoundingMode.HALF_EVEN));
    String digits = r.unscaledValue().toString();
    int exponent = digits.length() - 1 - r.scale();
    if (digits.length() < significant) digits = digits + "0".repeat(significant - digits.length());
    if (digits.length() > significant) digits = digits.substring(0, significant);
    return new Object[] {digits, exponent};
  }

  private static String exponential(double a, int precision, boolean alternate) {
    Object[] de = decimalDigits(a, precision + 1);
    String digits = (String) de[0];
    int exponent = (Integer) de[1];
    StringBuilder sb = new StringBuilder();
    sb.append(digits.charAt(0));
    if (precision > 0 || alternate) sb.append('.');
    sb.append(digits, 1, digits.length());
    sb.append('e').append(exponent < 0 ? '-' : '+');
    int ae = Math.abs(exponent);
    if (ae < 10) sb.append('0');
    sb.append(ae);
    return sb.toString();
  }

  private static String general(double a, int p, boolean alternate) {
    int x = a == 0 ? 0 : (Integer) decimalDigits(a, p)[1];
    String t;
    if (p > x && x >= -4) {
      t = fixed(a, p - 1 - x, alternate);
      if (!alternate) t = stripZeros(t);
    } else {
      t = exponential(a, p - 1, alternate);
      if (!alternate) {
        int e = t.indexOf('e');
        t = stripZeros(t.substring(0, e)) + t.substring(e);
      }
    }
    return t;
  }

  private static String stripZeros(String t) {
    if (t.indexOf('.') < 0) return t;
    int end = t.length();
    while (t.charAt(end - 1) == '0') end--;
    if (t.charAt(end - 1) == '.') end--;
    return t.substring(0, end);
  }

  /** glibc's %a for a non-negative finite double (without the 0x prefix). */
  private static String hex(double a, int precision, boolean alternate) {
    long bits = Double.doubleToRawLongBits(a);
    int biased = (int) ((bits >>> 52) & 0x7ff);
    long mantissa = bits & ((1L << 52) - 1);
    int lead;
    int exponent;
    if (biased == 0) {
      lead = 0;
      exponent = mantissa == 0 ? 0 : -1022;
    } else {
      lead = 1;
      exponent = biased - 1023;
    }
    String frac = String.format("%013x", mantissa);
    if (precision < 0) {
      frac = frac.replaceAll("0+$", "");
    } else if (precision < 13) {
      // Round the 52-bit fraction to `precision` hex digits, half to even.
      int drop = 4 * (13 - precision);
      long kept = mantissa >>> drop;
      long rest = mantissa & ((1L << drop) - 1);
      long half = 1L << (drop - 1);
      if (rest > half || (rest == half && (kept & 1) != 0)) kept++;
      if (precision == 0) {
        lead += (int) kept;
        frac = "";
      } else {
        if (kept >>> (4 * precision) != 0) {
          lead++;
          kept &= (1L << (4 * precision)) - 1;
        }
        frac = String.format("%0" + precision + "x", kept);
      }
    } else {
      frac = frac + "0".repeat(precision - 13);
    }
    StringBuilder sb = new StringBuilder();
    sb.append(Integer.toHexString(lead));
    if (!frac.isEmpty() || alternate) sb.append('.');
    sb.append(frac).append('p').append(exponent < 0 ? '-' : '+').append(Math.abs(exponent));
    return sb.toString();
  }
}
